#pragma once

#include <QtQml/qqmlregistration.h>
#include <QAbstractListModel>
#include <QList>
#include <QString>

#include <functional>

// Everything the command palette can jump to, filtered and ranked by a
// query: what exists before what is not built yet, then the best match
// first; matches far weaker than the best are dropped, so a few letters
// give a short list.
class PaletteModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the palette model comes from Course.palette")
    Q_PROPERTY(QString query READ query WRITE setQuery NOTIFY queryChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)

public:
    struct Entry
    {
        QString place; // what --open and the shell's navigate() take: ch03, EX01, bench…
        QString kind;  // chapter, stage, instrument, drill, exhibit, lab, page
        QString title;
        QString subtitle;
        QString keywords;   // extra words that match but are not shown
        bool built = true;  // false for a piece not built yet: it ranks below every built one
        QString marks = {}; // the words to mark, when not the query's (a mistyped word put right); the "marks" role
    };

    enum Role { PlaceRole = Qt::UserRole + 1, KindRole, TitleRole, SubtitleRole, MarksRole };

    explicit PaletteModel(QObject *parent = nullptr);

    void setEntries(QList<Entry> entries);
    // Hits in the chapters' text for a query, listed after the entries
    // that match by name (see chapters/chaptersearch.h).
    using TextSearch = std::function<QList<Entry>(const QString &query)>;
    void setTextSearch(TextSearch search) { m_textSearch = std::move(search); }
    // What readies the text search ahead of a query: asked when the
    // palette opens, a query likely on its way (Reader::readAheadForSearch).
    void setTextSearchReadAhead(std::function<void()> readAhead) { m_readAhead = std::move(readAhead); }
    Q_INVOKABLE void readAhead()
    {
        if (m_readAhead)
            m_readAhead();
    }
    // A query this long or longer is also looked up in the text.
    static constexpr int kTextQueryLength = 3;
    const QList<Entry> &matches() const { return m_matches; }

    QString query() const { return m_query; }
    void setQuery(const QString &query);
    // The query looked up in the text again, now that the text can answer
    // more of it (Reader::textFilledFor); the rows change only if the hits do.
    void searchTextAgain();

    Q_INVOKABLE QString placeAt(int row) const;
    // "in the text" for a hit in the chapters' text, else the entry's kind.
    Q_INVOKABLE QString kindAt(int row) const;
    // The words to mark in what the row opens: the query, or the words it
    // was put right to.
    Q_INVOKABLE QString marksAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void queryChanged();
    void countChanged();

private:
    void refilter();

    TextSearch m_textSearch;
    std::function<void()> m_readAhead;
    QList<Entry> m_entries;
    QList<Entry> m_matches;
    QString m_query;
};
