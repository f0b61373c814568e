#include "ex05_support.h"

#include <catch2/catch.hpp>

#include <QQuickItem>
#include <QTest>

#include <algorithm>

namespace ex05 {

const char *const layers[3] = {"jaxpr", "stablehlo", "hlo"};

QString shown(ShellFixture &shell, const char *name)
{
    for (QObject *item : shell.findAll(name))
        if (ShellFixture::isShown(item))
            return item->property("text").toString().trimmed();
    return QStringLiteral("<not shown: %1>").arg(QString::fromLatin1(name));
}

QQuickItem *lineItem(ShellFixture &shell, int layer, int line)
{
    const QByteArray name = QStringLiteral("ex05Line_%1_%2").arg(QLatin1String(layers[layer])).arg(line).toUtf8();
    return qobject_cast<QQuickItem *>(shell.find(name.constData()));
}

QPoint centre(QQuickItem *item)
{
    return item->mapToScene(QPointF(std::min(item->width() / 4, 80.0), item->height() / 2)).toPoint();
}

void click(ShellFixture &shell, const char *name)
{
    auto *target = qobject_cast<QQuickItem *>(shell.findShown(name));
    REQUIRE(target != nullptr);
    QTest::mouseClick(shell.window(), Qt::LeftButton, {},
                      target->mapToScene(QPointF(target->width() / 2, target->height() / 2)).toPoint());
}

} // namespace ex05
