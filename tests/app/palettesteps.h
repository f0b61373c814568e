#pragma once

// Steps the palette's tests share: a search typed as a learner types it,
// and a row of its list found and opened with the keys.
#include "palette/palettemodel.h"
#include "qtwait.h"
#include "shellfixture.h"

#include <catch2/catch.hpp>

#include <QQuickWindow>
#include <QTest>

#include <functional>

// Ctrl+K and `words` typed into the palette's field, as a learner does.
inline void searchFor(ShellFixture &shell, const QString &words)
{
    QTest::keyClick(shell.window(), Qt::Key_K, Qt::ControlModifier);
    QObject *field = shell.find("paletteField");
    REQUIRE(field != nullptr);
    WAIT_VERIFY(field->property("activeFocus").toBool());
    shell.typeText(words);
}

// The first row of the palette's list for which `is` holds; -1 when none does.
inline int firstRow(const PaletteModel *palette, const std::function<bool(int row)> &is)
{
    for (int i = 0; i < palette->rowCount(); ++i)
        if (is(i))
            return i;
    return -1;
}

// Moves the palette's pick down to `row` with the arrow key and opens it.
inline void openRow(QQuickWindow *window, int row)
{
    for (int i = row; i > 0; --i)
        QTest::keyClick(window, Qt::Key_Down);
    QTest::keyClick(window, Qt::Key_Return);
}
