// SPDX-License-Identifier: MIT
// What an hwloc XML capture must satisfy before it is handed to hwloc 2.9, which crashes (instead of
// failing) on some well-formed but odd captures. Internal to the hwloc loader.
#pragma once

#include <QByteArray>
#include <QString>

namespace rankscope {

// Empty when hwloc can be trusted with `xml`; else "line N: what is wrong" (the caller adds the file).
QString hwlocXmlPrecheckError(const QByteArray& xml);

} // namespace rankscope
