#pragma once
// The learner's theme: light (the chapters on paper, as the descent starts)
// or dark (the same pages on a dark ground). Ctrl+Shift+D or the palette
// switches it; it is kept in the progress store's settings, so a relaunch
// opens in the theme chosen.
#include <QtQml/qqmlregistration.h>
#include <processsingleton.h>
#include <QObject>

namespace progress {
class Store;
}

class ReaderTheme : public QObject, public ProcessSingleton<ReaderTheme>
{
    Q_OBJECT
    QML_NAMED_ELEMENT(ReaderTheme)
    QML_SINGLETON
    Q_PROPERTY(bool dark READ dark WRITE setDark NOTIFY changed)
    // "light" or "dark", as the settings keep it and the palette says it.
    Q_PROPERTY(QString name READ name NOTIFY changed)

public:
    static void provide(progress::Store *store);

    bool dark() const { return m_dark; }
    void setDark(bool dark);
    QString name() const { return m_dark ? QStringLiteral("dark") : QStringLiteral("light"); }

    Q_INVOKABLE void toggle() { setDark(!m_dark); }
    // Shown for this run only, the kept theme left as it is (--theme).
    void showForThisRun(bool dark);
    Q_INVOKABLE void reload();

signals:
    void changed();

private:
    friend class ProcessSingleton<ReaderTheme>;
    ReaderTheme() = default;
    bool m_dark = false;
};
