// Every text colour of the theme against the grounds it is put on: WCAG 2's
// contrast ratio, 4.5:1 for text and 3:1 for large text and control edges.
#include <catch2/catch.hpp>

#include "support.h"

#include <QtQml/qqmlextensionplugin.h>
#include <QColor>
#include <QQmlComponent>
#include <QQmlEngine>

#include <algorithm>

Q_IMPORT_QML_PLUGIN(TpuCourse_UiPlugin)

TEST_CASE("the ratio is WCAG's", "[contrast]")
{
    CHECK(contrastRatio(Qt::black, Qt::white) == Approx(21.0));
    CHECK(contrastRatio(QColor("#777777"), Qt::white) == Approx(4.48).epsilon(0.01));
    CHECK(contrastRatio(QColor("#123456"), QColor("#123456")) == Approx(1.0));
}

TEST_CASE("every pair of the theme reads", "[contrast]")
{
    QQmlEngine engine;
    engine.addImportPath(QStringLiteral("qrc:/qt/qml"));
    QQmlComponent component(&engine);
    component.setData("import QtQuick\nimport TpuCourse.Ui\nQtObject { property var pairs: Theme.contrastPairs() }",
                      QUrl());
    std::unique_ptr<QObject> holder(component.create());
    INFO(component.errorString().toStdString());
    REQUIRE(holder != nullptr);
    const QVariantList pairs = holder->property("pairs").toList();
    REQUIRE(pairs.size() > 40);
    // Both themes are listed, whichever one is shown.
    const auto inTheme = [&pairs](const char *prefix) {
        return std::count_if(pairs.begin(), pairs.end(), [prefix](const QVariant &p) {
            return p.toList().value(0).toString().startsWith(QLatin1String(prefix));
        });
    };
    CHECK(inTheme("light: ") >= 40);
    CHECK(inTheme("dark: ") >= 40);
    for (const QVariant &entry : pairs) {
        const QVariantList pair = entry.toList();
        REQUIRE(pair.size() == 4);
        const QColor fg = pair[1].value<QColor>(), bg = pair[2].value<QColor>();
        REQUIRE(fg.isValid());
        REQUIRE(bg.isValid());
        const double ratio = contrastRatio(fg, bg);
        INFO(pair[0].toString().toStdString()
             << ": " << fg.name().toStdString() << " on " << bg.name().toStdString() << " is " << ratio << ":1");
        CHECK(ratio >= pair[3].toDouble());
    }
}
