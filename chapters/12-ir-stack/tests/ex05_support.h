#pragma once
// What EX·05's two test files share: finding what the pane shows, line by
// line, and clicking a control as a learner does.
#include "shellfixture.h"

#include <QPoint>
#include <QString>

class QQuickItem;

namespace ex05 {

extern const char *const layers[3]; // "jaxpr", "stablehlo", "hlo": the panes' objectName parts

// The text of the first item shown with this objectName, trimmed, or "<not shown: NAME>".
QString shown(ShellFixture &shell, const char *name);
// A pane's line delegate (1-based line), or null when the list has not made it.
QQuickItem *lineItem(ShellFixture &shell, int layer, int line);
// A point near a line's start: a line is as wide as its pane's longest line.
QPoint centre(QQuickItem *item);
void click(ShellFixture &shell, const char *name);

} // namespace ex05
