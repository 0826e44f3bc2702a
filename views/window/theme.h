// SPDX-License-Identifier: MIT
// View ▸ Theme: Fusion with the system's palette, a light or a dark one. One style serves all three, and
// every colour of the window comes from the palette or from the one table in
// views/widgets/severity_palette, which has a light and a dark variant of each, so a theme switch is one
// palette change. The choice is kept in QSettings.
#pragma once

#include <QString>
#include <optional>

namespace rankscope {

enum class Theme
{
    System,
    Light,
    Dark,
};

QString themeName(Theme theme); // "system", "light", "dark"
std::optional<Theme> themeFromName(const QString& name); // case-insensitive; nullopt when unknown
// Installs the one theme style on first use, then sets the palette; System is the palette the
// application started with.
void applyTheme(Theme theme);
Theme savedTheme(); // the last choice, System when none
void saveTheme(Theme theme);

} // namespace rankscope
