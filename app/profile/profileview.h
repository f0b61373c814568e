#pragma once

#include "profilesession.h"

#include <QtQml/qqmlregistration.h>
#include <QColor>
#include <QQuickPaintedItem>

// What the profile's painted views share: the session they draw, the table
// row lit across the page, what the pointer is over, and the theme's ink.
// A view draws its device again whenever the session shows another.
class ProfileView : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(ProfileSession *session READ session WRITE setSession NOTIFY sessionChanged)
    // The table row whose op is lit (-1: none).
    Q_PROPERTY(int litRow READ litRow WRITE setLitRow NOTIFY litRowChanged)
    // What the pointer is over, in a sentence; "" when nothing.
    Q_PROPERTY(QString pointed READ pointed NOTIFY pointedChanged)
    Q_PROPERTY(QColor ground MEMBER m_ground NOTIFY styleChanged)
    Q_PROPERTY(QColor ink MEMBER m_ink NOTIFY styleChanged)
    Q_PROPERTY(QColor lit MEMBER m_lit NOTIFY styleChanged)
    Q_PROPERTY(QString fontFamily MEMBER m_font NOTIFY styleChanged)
    Q_PROPERTY(int fontPixelSize MEMBER m_fontSize NOTIFY styleChanged)

public:
    explicit ProfileView(QQuickItem *parent = nullptr);

    ProfileSession *session() const { return m_session; }
    void setSession(ProfileSession *session);
    int litRow() const { return m_litRow; }
    void setLitRow(int row);
    QString pointed() const { return m_pointed; }

signals:
    void sessionChanged();
    void litRowChanged();
    void pointedChanged();
    void styleChanged();
    // The table row of the op clicked.
    void picked(int row);

protected:
    // The device's table, or null.
    const tpuprofile::OpTable *table() const { return m_session ? m_session->table() : nullptr; }
    // Called when the session shows another device (or profile).
    virtual void reload() = 0;
    // Called when the lit row changes, before the view is drawn again.
    virtual void lightRow(int row) { (void)row; }
    void setPointed(const QString &text);
    QFont font() const;

    QColor m_ground, m_ink, m_lit;
    QString m_font;
    int m_fontSize = 12;
    int m_litRow = -1;

private:
    ProfileSession *m_session = nullptr;
    QString m_pointed;
};
