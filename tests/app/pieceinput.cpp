#include "pieceinput.h"

#include <catch2/catch.hpp>

#include <QQuickItem>
#include <QTest>

namespace piece_input {

QQuickItem *shownItem(ShellFixture &shell, const char *name)
{
    return qobject_cast<QQuickItem *>(shell.findShown(name));
}

std::string shown(ShellFixture &shell, const char *name)
{
    QQuickItem *found = shownItem(shell, name);
    return found ? found->property("text").toString().toStdString() : "<not shown: " + std::string(name) + ">";
}

QQuickItem *item(ShellFixture &shell, const char *name)
{
    QQuickItem *found = shownItem(shell, name);
    REQUIRE(found != nullptr);
    return found;
}

QPoint at(QQuickItem *item, qreal fx, qreal fy)
{
    return item->mapToScene(QPointF(item->width() * fx, item->height() * fy)).toPoint();
}

void drag(QWindow *window, QQuickItem *scrub, int dx)
{
    const QPoint from = at(scrub, 0.8);
    QTest::mousePress(window, Qt::LeftButton, Qt::NoModifier, from);
    const int steps = 12;
    for (int i = 1; i <= steps; ++i)
        QTest::mouseMove(window, from + QPoint(dx * i / steps, 0), 10);
    QTest::mouseRelease(window, Qt::LeftButton, Qt::NoModifier, from + QPoint(dx, 0), 10);
}

void typeInto(QWindow *window, QQuickItem *scrub, const char *digits)
{
    scrub->forceActiveFocus();
    for (const char *c = digits; *c; ++c)
        QTest::keyClick(window, *c);
    QTest::keyClick(window, Qt::Key_Return);
}

void click(ShellFixture &shell, const char *name)
{
    QTest::mouseClick(shell.window(), Qt::LeftButton, Qt::NoModifier, at(item(shell, name), 0.5));
}

} // namespace piece_input
