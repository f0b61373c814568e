#pragma once
// Driving a piece the way a learner does, for the instrument tests: find
// what is on screen, read its text, drag a scrub number, type into one,
// click a control.
#include "shellfixture.h"

#include <QPoint>
#include <string>

class QQuickItem;
class QWindow;

namespace piece_input {

// The first item on screen with this objectName, or null.
QQuickItem *shownItem(ShellFixture &shell, const char *name);
// Its text as std::string, so Catch2 prints both sides of a failed comparison.
std::string shown(ShellFixture &shell, const char *name);
// The item, required to be on screen.
QQuickItem *item(ShellFixture &shell, const char *name);
// A point inside an item, as fractions of its width and height, in window coordinates.
QPoint at(QQuickItem *item, qreal fx, qreal fy = 0.5);
// Presses on a ScrubNumber's number (the right part; the left holds its
// label), moves in small steps by `dx`, releases: a real drag.
void drag(QWindow *window, QQuickItem *scrub, int dx);
// Types a value into a scrub number: a digit starts the edit, Enter ends it.
void typeInto(QWindow *window, QQuickItem *scrub, const char *digits);
void click(ShellFixture &shell, const char *name);

} // namespace piece_input
