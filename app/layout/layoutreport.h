#pragma once

#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>

class QJsonDocument;
class QQuickWindow;

// What a learner can see of a rendered page: every visible text item and
// control, where it sits in the window, whether its text is cut off, and
// whether it can be brought into view. Read off the live item tree at the
// page's current scroll position.
struct LayoutItem
{
    enum class Kind { Text, Control };
    Kind kind = Kind::Text;
    QString text;
    QRectF rect;           // window coordinates: the painted text, or the control's bounds
    QRectF shownRect;      // the part inside the window and every clip above it (empty if none)
    bool clipped = false;  // the text is cut by its own bounds, an elide, or a clip above it
    bool reachable = true; // in the window, or in a scrollable area that can scroll to it
    QString path;          // the item's place in the tree, to find it from a report
};

QList<LayoutItem> collectLayout(QQuickWindow *window);

// {"window": {"w", "h"}, "items": [{"kind", "text", "rect", "clipped", "reachable"}],
//  "problems": [one sentence per fault, as layoutProblems() says them]}
QJsonDocument layoutReportJson(const QList<LayoutItem> &items, QSize windowSize);

// One sentence per fault: two shown texts that overlap, a clipped text, an
// item that cannot be reached.
QStringList layoutProblems(const QList<LayoutItem> &items);
