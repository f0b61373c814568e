#include "layoutreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QQuickItem>
#include <QQuickWindow>
#include <QScopeGuard>
#include <QVariant>

namespace {

// Slack for sub-pixel layout: a text that spills by less than this is not cut.
constexpr qreal kTolerance = 1.5;
// Two texts overlap only when they share more than this in both directions;
// ascenders and descenders of adjacent lines may touch.
constexpr qreal kOverlapSlack = 2.0;

bool inherits(const QQuickItem *item, const char *className)
{
    return item->inherits(className);
}

bool isText(const QQuickItem *item)
{
    return inherits(item, "QQuickText") && !item->property("text").toString().trimmed().isEmpty();
}

bool isControl(const QQuickItem *item)
{
    if (inherits(item, "QQuickScrollBar"))
        return false; // part of its page, which is checked itself
    if (inherits(item, "QQuickAbstractButton") || inherits(item, "QQuickTextInput") ||
        inherits(item, "QQuickTextEdit") || inherits(item, "QQuickControl"))
        return true;
    if (inherits(item, "QQuickMouseArea"))
        return item->isEnabled() && item->property("acceptedButtons").toInt() != Qt::NoButton;
    return item->activeFocusOnTab();
}

qreal effectiveOpacity(const QQuickItem *item)
{
    qreal opacity = 1;
    for (; item; item = item->parentItem())
        opacity *= item->opacity();
    return opacity;
}

QString controlText(const QQuickItem *item)
{
    for (const QQuickItem *at = item; at; at = at->parentItem()) {
        const QString text = at->property("text").toString();
        if (!text.trimmed().isEmpty())
            return text;
        if (!at->objectName().isEmpty())
            return at->objectName();
        if (at != item)
            break; // the control itself, then its owner: no further
    }
    return QString::fromLatin1(item->metaObject()->className());
}

QString pathOf(const QQuickItem *item)
{
    QStringList parts;
    for (; item; item = item->parentItem()) {
        if (!item->objectName().isEmpty()) {
            parts.prepend(item->objectName());
            if (parts.size() >= 3)
                break;
        }
    }
    return parts.join(QLatin1Char('/'));
}

// Where a text's glyphs are painted, in its own coordinates.
QRectF paintedRect(const QQuickItem *item)
{
    if (!inherits(item, "QQuickText"))
        return QRectF(0, 0, item->width(), item->height());
    return item->boundingRect();
}

bool textCutByItself(const QQuickItem *item)
{
    if (!inherits(item, "QQuickText"))
        return false;
    if (item->property("truncated").toBool())
        return true; // elided, or cut to maximumLineCount
    const QRectF painted = item->boundingRect();
    const QRectF own(0, 0, item->width(), item->height());
    const bool spills = painted.right() > own.right() + kTolerance || painted.bottom() > own.bottom() + kTolerance ||
                        painted.left() < own.left() - kTolerance || painted.top() < own.top() - kTolerance;
    return spills &&
           (item->clip() || painted.width() > own.width() + kTolerance || painted.height() > own.height() + kTolerance);
}

struct Viewport
{
    QRectF shown; // window coordinates that are visible through every clip
    bool reachable = true;
    bool clipped = false;
};

bool isFlickable(const QQuickItem *item)
{
    return inherits(item, "QQuickFlickable");
}

// Follows the clips above an item: a scrolling area hides what it can
// scroll to (reachable, not cut), and from there on it is the scrolling
// area itself that must sit inside the clips above it; any other clip cuts
// what sticks out of it, and the window clips last.
Viewport viewportOf(const QQuickItem *item, const QRectF &sceneRect, const QRectF &windowRect)
{
    Viewport v;
    v.shown = sceneRect.intersected(windowRect);
    QRectF subject = sceneRect;
    const auto checkInside = [&v](const QRectF &subjectRect, const QRectF &clipRect) {
        if (clipRect.adjusted(-kTolerance, -kTolerance, kTolerance, kTolerance).contains(subjectRect))
            return;
        if (clipRect.intersects(subjectRect))
            v.clipped = true;
        else
            v.reachable = false;
    };
    for (const QQuickItem *at = item->parentItem(); at; at = at->parentItem()) {
        if (!at->clip())
            continue;
        const QRectF clipRect = at->mapRectToScene(QRectF(0, 0, at->width(), at->height()));
        v.shown = v.shown.intersected(clipRect);
        if (isFlickable(at)) {
            // Everything inside the content can be scrolled to.
            auto *content = at->property("contentItem").value<QQuickItem *>();
            const qreal contentWidth = at->property("contentWidth").toReal();
            const qreal contentHeight = at->property("contentHeight").toReal();
            const QRectF local = content ? content->mapRectFromScene(subject) : QRectF();
            const bool inContent = local.left() >= -kTolerance && local.top() >= -kTolerance &&
                                   local.right() <= qMax(contentWidth, at->width()) + kTolerance &&
                                   local.bottom() <= qMax(contentHeight, at->height()) + kTolerance;
            if (!inContent)
                v.reachable = false;
            subject = clipRect;
            continue;
        }
        checkInside(subject, clipRect);
    }
    checkInside(subject, windowRect);
    return v;
}

void walk(QQuickItem *item, const QRectF &windowRect, QList<LayoutItem> &out)
{
    if (!item->isVisible() || effectiveOpacity(item) < 0.01)
        return;
    // A ScrollPage's own scrollbar, like Qt Quick Controls', is part of its
    // page, which is checked itself; it holds no text.
    if (item->objectName() == QLatin1String("pageScrollBar"))
        return;
    const bool text = isText(item);
    const bool control = !text && isControl(item);
    if ((text || control) && item->width() > 0 && item->height() > 0) {
        LayoutItem entry;
        entry.kind = text ? LayoutItem::Kind::Text : LayoutItem::Kind::Control;
        entry.text = text ? item->property("text").toString() : controlText(item);
        entry.rect = item->mapRectToScene(text ? paintedRect(item) : QRectF(0, 0, item->width(), item->height()));
        const Viewport v = viewportOf(item, entry.rect, windowRect);
        entry.shownRect = v.shown;
        entry.reachable = v.reachable;
        entry.clipped = text && (textCutByItself(item) || v.clipped);
        entry.path = pathOf(item);
        out.append(entry);
    }
    for (QQuickItem *child : item->childItems())
        walk(child, windowRect, out);
}

QString quoted(const QString &text)
{
    QString one = text.simplified();
    if (one.size() > 60)
        one = one.left(57) + QStringLiteral("…");
    return QLatin1Char('"') + one + QLatin1Char('"');
}

QString rectText(const QRectF &r)
{
    return QStringLiteral("[%1, %2, %3×%4]")
        .arg(qRound(r.x()))
        .arg(qRound(r.y()))
        .arg(qRound(r.width()))
        .arg(qRound(r.height()));
}

} // namespace

QList<LayoutItem> collectLayout(QQuickWindow *window)
{
    QList<LayoutItem> out;
    if (!window)
        return out;
    // The whole page is read, not only what is drawn near the view (a
    // chapter hides its text far from it; its places and sizes stay).
    window->setProperty("wholePages", true);
    const auto drawNearViewAgain = qScopeGuard([window] { window->setProperty("wholePages", false); });
    const QRectF windowRect(0, 0, window->width(), window->height());
    // A modal popup covers the page: only what it shows can be read.
    QQuickItem *root = window->contentItem();
    for (QQuickItem *child : root->childItems()) {
        if (inherits(child, "QQuickOverlay")) {
            const auto popups = child->childItems();
            bool modalOpen = false;
            for (QQuickItem *p : popups)
                modalOpen = modalOpen || (p->isVisible() && inherits(p, "QQuickPopupItem") && p->parent() &&
                                          p->parent()->property("modal").toBool());
            if (modalOpen) {
                for (QQuickItem *p : popups)
                    if (inherits(p, "QQuickPopupItem"))
                        walk(p, windowRect, out);
                return out;
            }
        }
    }
    walk(root, windowRect, out);
    return out;
}

QJsonDocument layoutReportJson(const QList<LayoutItem> &items, QSize windowSize)
{
    QJsonArray array;
    for (const LayoutItem &item : items) {
        array.append(QJsonObject{
            {QStringLiteral("kind"),
             item.kind == LayoutItem::Kind::Text ? QStringLiteral("text") : QStringLiteral("control")},
            {QStringLiteral("text"), item.text},
            {QStringLiteral("rect"), QJsonArray{qRound(item.rect.x()), qRound(item.rect.y()), qRound(item.rect.width()),
                                                qRound(item.rect.height())}},
            {QStringLiteral("clipped"), item.clipped},
            {QStringLiteral("reachable"), item.reachable},
        });
    }
    return QJsonDocument(QJsonObject{
        {QStringLiteral("window"),
         QJsonObject{{QStringLiteral("w"), windowSize.width()}, {QStringLiteral("h"), windowSize.height()}}},
        {QStringLiteral("items"), array},
        {QStringLiteral("problems"), QJsonArray::fromStringList(layoutProblems(items))},
    });
}

QStringList layoutProblems(const QList<LayoutItem> &items)
{
    QStringList problems;
    QList<const LayoutItem *> shownTexts;
    for (const LayoutItem &item : items) {
        if (!item.reachable)
            problems << QStringLiteral("cannot be reached: %1 at %2 (%3)")
                            .arg(quoted(item.text), rectText(item.rect), item.path);
        if (item.kind != LayoutItem::Kind::Text)
            continue;
        if (item.clipped)
            problems << QStringLiteral("cut off: %1 at %2 (%3)").arg(quoted(item.text), rectText(item.rect), item.path);
        if (!item.shownRect.isEmpty())
            shownTexts.append(&item);
    }
    for (qsizetype i = 0; i < shownTexts.size(); ++i) {
        for (qsizetype j = i + 1; j < shownTexts.size(); ++j) {
            const QRectF common = shownTexts[i]->shownRect.intersected(shownTexts[j]->shownRect);
            if (common.width() > kOverlapSlack && common.height() > kOverlapSlack)
                problems << QStringLiteral("overlap: %1 at %2 and %3 at %4")
                                .arg(quoted(shownTexts[i]->text), rectText(shownTexts[i]->shownRect),
                                     quoted(shownTexts[j]->text), rectText(shownTexts[j]->shownRect));
        }
    }
    return problems;
}
