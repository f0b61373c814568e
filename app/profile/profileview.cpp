#include "profileview.h"

#include <QFont>

ProfileView::ProfileView(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    setAcceptHoverEvents(true);
    setAcceptedMouseButtons(Qt::LeftButton);
    connect(this, &ProfileView::styleChanged, this, [this] { update(); });
}

void ProfileView::setSession(ProfileSession *session)
{
    if (session == m_session)
        return;
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (m_session)
        connect(m_session, &ProfileSession::deviceChanged, this, [this] {
            reload();
            update();
        });
    reload();
    update();
    emit sessionChanged();
}

void ProfileView::setLitRow(int row)
{
    lightRow(row);
    if (row != m_litRow) {
        m_litRow = row;
        emit litRowChanged();
    }
    update();
}

void ProfileView::setPointed(const QString &text)
{
    if (text == m_pointed)
        return;
    m_pointed = text;
    emit pointedChanged();
}

QFont ProfileView::font() const
{
    QFont f(m_font);
    f.setPixelSize(m_fontSize);
    return f;
}
