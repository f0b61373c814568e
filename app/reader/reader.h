#pragma once
// The course's text as the shell's reader sees it (TpuCourse.Backend's
// Reader): a chapter as typed blocks, each filled with its live numbers for
// a chip and the learner's inputs when it is built; the museum exhibits;
// code in colour; figures the pages quote; and the chapters' sections for
// the palette's text search. Course makes it and hands it to QML.
#include <QtQml/qqmlregistration.h>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <QUrl>
#include <QVariantList>
#include <QVariantMap>

#include <chapters/chapterdocument.h>
#include <chapters/chaptersearch.h>
#include <chapters/codecolours.h>
#include <chapters/livenumbers.h>
#include <chapters/searchspelling.h>

#include "palette/palettemodel.h"

class QJSEngine;
class QQmlEngine;
namespace course {
class ChapterCatalog;
}

class Reader : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    // Grows when the text is set in other fonts or colours (the theme
    // changed), so each block of an open chapter fills itself again.
    Q_PROPERTY(int textStyleRevision READ textStyleRevision NOTIFY textStyleChanged)

public:
    explicit Reader(course::ChapterCatalog &catalog, QObject *parent = nullptr);
    // The app's Reader, which Course made: what QML's Reader stands for.
    static Reader *create(QQmlEngine *, QJSEngine *);

    int textStyleRevision() const { return m_textStyleRevision; }

    // The chapter's introduction and text, parsed into typed blocks;
    // `style` carries the theme's fonts and colours. Returns the outline: {count, headings: [{index, level, anchor,
    // title}], pieces: [{index, pieceId}], problems: [..], values}.
    Q_INVOKABLE QVariantMap chapterDocument(int number, const QVariantMap &style);
    // Block `index` of that document with its live numbers filled for `chip`
    // and its inputs at `inputs` ({name: value}), code spans in prose set at
    // `codePixelSize` (0: the text's size): {kind, html: [..], details: [..],
    // problems: [..], ...}.
    Q_INVOKABLE QVariantMap documentBlock(int number, int index, const QString &chip, const QVariantMap &inputs,
                                          int codePixelSize = 0) const;
    // A museum exhibit from its folder (a qrc: URL in its chapter plugin,
    // chapters/api/include/chapters/exhibit.h): its artifact and notes as
    // documents that documentBlock() fills ("key" and "notesKey"), its
    // parts with the notes pinned to each, its charts, and its problems.
    Q_INVOKABLE QVariantMap exhibit(const QUrl &folder, const QVariantMap &style);
    // The query with its mistyped words put right to the nearest words the
    // chapters hold (course::Vocabulary); empty when none needed it or none
    // is near.
    Q_INVOKABLE QString putRight(const QString &query);
    // One live number (the inside of {{...}}) on `chip`: {text, number,
    // isFact, details, problem}; `number` is NaN where a figure has none.
    Q_INVOKABLE QVariantMap liveFigure(const QString &figure, const QString &chip) const;
    // An HLO dump in an exhibit's folder, its kernels costed on `chip` by
    // libtpusim (as EX·05 costs them): {kernels: [{line, name, kind, engine,
    // flops, read, written, time, bound, seconds}], time, details, problem}.
    Q_INVOKABLE QVariantMap hloKernels(const QUrl &folder, const QString &file, const QString &chip) const;
    // Code in syntax colours as styled text (codecolours.h): the reader's
    // code blocks and the IR x-ray's panes colour code the same way.
    // `palette` maps each kind (plain, keyword, string, ...) to a colour.
    Q_INVOKABLE QString codeStyled(const QString &code, const QString &language, const QVariantMap &palette) const;

    // The palette's hits in the chapters' text (chapters/chaptersearch.h),
    // their snippets with the live numbers as they read on `chip`.
    // Searched with their figures too once every section is filled for
    // the chip: the first search starts filling them, a few at a time
    // while the window is idle (fillForSearch), then textFilledFor(chip).
    QList<PaletteModel::Entry> searchText(const QString &query, const QString &chip);
    // Reads the chapters' sections for searchText a chapter a go while the
    // window is idle (the palette opened, a search likely next), so that
    // the first search need not read them all at once. A search made
    // before they are all read reads the rest itself.
    Q_INVOKABLE void readAheadForSearch();
    // Whether every chapter's sections are read.
    bool readForSearch() const;

signals:
    void textStyleChanged();
    // Every section's figures are now known on this chip: a search made
    // before should be made again.
    void textFilledFor(const QString &chip);

private:
    void applyTextStyle(const QVariantMap &style);
    // A chapter's parsed text, its plugin loaded on first asking; null when it has none.
    const course::ChapterDocument *documentOf(int number);
    // The section's text filled on `chip`, filled now if it is not yet.
    const QString &filledSection(int at, const QString &chip);
    // Fills the sections not yet filled on m_fillingChip for a few
    // milliseconds, and comes back after the event loop until all are.
    void fillForSearch();
    // Reads the next chapter's sections into m_sections; false once all are.
    bool readNextSections();
    // The chapters' sections not read yet, read now.
    void readAllSections();

    course::ChapterCatalog &m_catalog;
    // Parsed once per chapter; filled again for each chip and input.
    // Chapters by number; exhibits from kExhibitKeys on, two keys each
    // (the artifact, then its notes), handed out as they are first opened.
    QHash<int, course::ChapterDocument> m_documents;
    // For searchText: every chapter's sections, read in the catalog's order
    // a chapter at a time; m_sectionsRead chapters so far.
    QList<course::TextSection> m_sections;
    qsizetype m_sectionsRead = 0;
    // The sections' words, made once they are all read: what a mistyped
    // word of a search is put right to.
    course::Vocabulary m_vocabulary;
    QTimer m_readTimer;
    // Sections filled for a chip as hits showed them, by chip, then section index.
    QHash<QString, QHash<int, QString>> m_filledSections;
    QString m_fillingChip; // the chip fillForSearch works for
    QTimer m_fillTimer;
    QHash<QString, QVariantMap> m_exhibits;
    static constexpr int kExhibitKeys = 1000;
    QVariantMap m_appliedStyle;
    int m_textStyleRevision = 0;
    course::LiveTextStyle m_textStyle;
    course::CodePalette m_codePalette;
};
