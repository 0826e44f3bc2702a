// SPDX-License-Identifier: MIT
// View ▸ Theme: the system's look, or Fusion with a light or a dark palette. Every colour of the window
// comes from the palette or from the one table in views/widgets/severity_palette, which has a light and a
// dark variant of each, so a theme is one palette change. The choice is kept in QSettings.
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
void applyTheme(Theme theme); // the application's style and palette; System restores the ones it started with
Theme savedTheme(); // the last choice, System when none
void saveTheme(Theme theme);

} // namespace rankscope
