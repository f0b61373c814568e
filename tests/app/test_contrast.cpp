// Every text colour of the theme against the grounds it is put on: WCAG 2's
// contrast ratio, 4.5:1 for text and 3:1 for large text and control edges.
#include <catch2/catch.hpp>

#include <QtQml/qqmlextensionplugin.h>
#include <QColor>
#include <QQmlComponent>
#include <QQmlEngine>

#include <algorithm>
#include <cmath>

Q_IMPORT_QML_PLUGIN(TpuCourse_UiPlugin)

namespace {

// WCAG 2's relative luminance of an sRGB colour, over the colour as drawn
// on `ground` when it is translucent.
double luminance(QColor c, const QColor &ground)
{
    if (c.alphaF() < 1.0) {
        const double a = c.alphaF();
        c = QColor::fromRgbF(float(c.redF() * a + ground.redF() * (1 - a)),
                             float(c.greenF() * a + ground.greenF() * (1 - a)),
                             float(c.blueF() * a + ground.blueF() * (1 - a)));
    }
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &fg, const QColor &bg)
{
    const double a = luminance(fg, bg), b = luminance(bg, bg);
    return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}

} // namespace

TEST_CASE("the ratio is WCAG's", "[contrast]")
{
    CHECK(contrast(Qt::black, Qt::white) == Approx(21.0));
    CHECK(contrast(QColor("#777777"), Qt::white) == Approx(4.48).epsilon(0.01));
    CHECK(contrast(QColor("#123456"), QColor("#123456")) == Approx(1.0));
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
        const double ratio = contrast(fg, bg);
        INFO(pair[0].toString().toStdString()
             << ": " << fg.name().toStdString() << " on " << bg.name().toStdString() << " is " << ratio << ":1");
        CHECK(ratio >= pair[3].toDouble());
    }
}
