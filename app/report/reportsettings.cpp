#include "reportsettings.h"

#include <QSettings>

#ifdef Q_OS_UNIX
#include <pwd.h>
#include <unistd.h>
#endif

namespace {

const QString kFolderKey = QStringLiteral("report/lastFolder");
const QString kLearnerKey = QStringLiteral("report/learner");

// The account's full name where the system keeps one, else its login.
QString accountName()
{
#ifdef Q_OS_UNIX
    if (const passwd *pw = getpwuid(getuid())) {
        const QString full = QString::fromLocal8Bit(pw->pw_gecos).section(QLatin1Char(','), 0, 0).trimmed();
        if (!full.isEmpty())
            return full;
        if (pw->pw_name && *pw->pw_name)
            return QString::fromLocal8Bit(pw->pw_name);
    }
#endif
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME"));
    return user.isEmpty() ? QStringLiteral("a learner") : user;
}

} // namespace

namespace reportsettings {

QString lastFolder()
{
    return QSettings().value(kFolderKey).toString();
}

void rememberFolder(const QString &folder)
{
    QSettings().setValue(kFolderKey, folder);
}

QString learnerName()
{
    const QString saved = QSettings().value(kLearnerKey).toString().trimmed();
    return saved.isEmpty() ? accountName() : saved;
}

void rememberLearnerName(const QString &name)
{
    QSettings().setValue(kLearnerKey, name.trimmed());
}

} // namespace reportsettings
