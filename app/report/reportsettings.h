#pragma once

#include <QString>

// What report export remembers between sessions (QSettings: the progress
// store has no settings table): the folder last written to and the name
// printed on the report.
namespace reportsettings {

QString lastFolder(); // empty until a report has been written
void rememberFolder(const QString &folder);
// The name last printed on a report, else the name of this machine's account.
QString learnerName();
void rememberLearnerName(const QString &name);

} // namespace reportsettings
