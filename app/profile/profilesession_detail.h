#pragma once
// What the profile session's two files share (profilesession.cpp opens and
// shows a profile, profilestore.cpp keeps it in the progress store): the
// store, and the words for a profile's values.
#include <tpuprofile/op_table.h>
#include <tpuprofile/profile.h>

#include <QString>

#include <string>

namespace progress {
class Store;
}

namespace profiledetail {

extern progress::Store *g_store; // set by ProfileSession::provide

inline QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}
// When the profile was taken, ISO 8601 in UTC; empty when it does not say.
QString capturedAt(const tpuprofile::Profile &p);
// The program an op ran in, by name where the profile gives one.
QString programName(const tpuprofile::Profile &p, const tpuprofile::OpTable &t, const tpuprofile::Op &op);

} // namespace profiledetail
