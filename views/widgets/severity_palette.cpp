// SPDX-License-Identifier: MIT
#include "severity_palette.h"

namespace rankscope {

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor severityColor(Severity s, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    switch (s) {
    case Severity::Info:
        return dark ? QColor(0x7b, 0x87, 0x94) : QColor(0x9a, 0xa5, 0xb1);
    case Severity::Warn:
        return dark ? QColor(0xf5, 0xc0, 0x4a) : QColor(0xd9, 0x8e, 0x04);
    case Severity::Error:
        return dark ? QColor(0xff, 0x7a, 0x59) : QColor(0xd6, 0x45, 0x1b);
    case Severity::Fatal:
        return dark ? QColor(0xff, 0x5c, 0x8a) : QColor(0xa3, 0x00, 0x3c);
    }
    return palette.color(QPalette::Text);
}

QColor initiatingColor()
{
    return QColor(0xe0, 0x1e, 0x5a);
}

QColor collateralColor(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0x8e, 0x9a, 0xaf) : QColor(0x7b, 0x86, 0x99);
}

QColor sysPathColor()
{
    return QColor(0xd0, 0x1c, 0x1c);
}

} // namespace rankscope
