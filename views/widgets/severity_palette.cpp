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

QColor severityTextColor(Severity s, const QPalette& palette)
{
    // The stroke colours as text were 2.15:1 (WARN) and 3.2:1 (ERROR) on their own tint in the light
    // theme. Worst case over every tint, light: WARN 5.1, ERROR 4.8, FATAL 6.1; dark: 5.7, 4.7, 4.6.
    const bool dark = isDarkPalette(palette);
    switch (s) {
    case Severity::Info:
        break;
    case Severity::Warn:
        return dark ? QColor(0xf5, 0xc0, 0x4a) : QColor(0x6e, 0x47, 0x00);
    case Severity::Error:
        return dark ? QColor(0xff, 0x9b, 0x82) : QColor(0x9a, 0x2c, 0x0c);
    case Severity::Fatal:
        return dark ? QColor(0xff, 0x94, 0xb3) : QColor(0x8c, 0x00, 0x34);
    }
    return palette.color(QPalette::Text);
}

QColor initiatingColor(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x5c, 0x8a) : QColor(0xe0, 0x1e, 0x5a);
}

ColorPair initiatingBadge(const QPalette& palette)
{
    // White on the light hue is 4.6:1; on the dark one it would be 3:1, so that one takes dark text.
    return isDarkPalette(palette) ? ColorPair { initiatingColor(palette), QColor(0x1c, 0x1e, 0x22) }
                                  : ColorPair { initiatingColor(palette), QColor(Qt::white) };
}

QColor collateralColor(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0x8e, 0x9a, 0xaf) : QColor(0x7b, 0x86, 0x99);
}

QColor sysPathColor(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x5a, 0x5a) : QColor(0xd0, 0x1c, 0x1c);
}

QColor linkColor(LinkTone tone, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    switch (tone) {
    case LinkTone::Direct:
        return dark ? QColor(0x5c, 0xd0, 0x7a) : QColor(0x1e, 0x8e, 0x3e);
    case LinkTone::Switch:
        return dark ? QColor(0x4f, 0xc3, 0xd6) : QColor(0x13, 0x7d, 0x91);
    case LinkTone::HostBridge:
        return dark ? QColor(0x86, 0xa8, 0xff) : QColor(0x2f, 0x5f, 0xc8);
    case LinkTone::Node:
        return dark ? QColor(0xf5, 0xb0, 0x41) : QColor(0xb0, 0x6a, 0x00);
    case LinkTone::Sys:
        return sysPathColor(palette);
    }
    return palette.color(QPalette::Text);
}

QColor deviceColor(DeviceTone tone, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    return tone == DeviceTone::Gpu ? (dark ? QColor(0x6c, 0xb0, 0x4a) : QColor(0x76, 0xb9, 0x00))
                                   : (dark ? QColor(0x5a, 0x8c, 0xe0) : QColor(0x2f, 0x6f, 0xd8));
}

ColorPair toneColors(Tone tone, const QPalette& palette)
{
    // Light: a pale tint with dark text. Dark: a deep tint with light text, never a glaring pale one.
    const bool dark = isDarkPalette(palette);
    switch (tone) {
    case Tone::Failure:
        return dark ? ColorPair { QColor(0x4a, 0x14, 0x24), QColor(0xff, 0xc9, 0xd6) }
                    : ColorPair { QColor(0xfd, 0xec, 0xef), QColor(0x8a, 0x0f, 0x2e) };
    case Tone::Healthy:
        return dark ? ColorPair { QColor(0x17, 0x3d, 0x1d), QColor(0xc8, 0xf0, 0xcc) }
                    : ColorPair { QColor(0xe8, 0xf5, 0xe9), QColor(0x1b, 0x5e, 0x20) };
    case Tone::Unsure:
        return dark ? ColorPair { QColor(0x4a, 0x3a, 0x0c), QColor(0xff, 0xe8, 0xa8) }
                    : ColorPair { QColor(0xff, 0xf4, 0xd6), QColor(0x6d, 0x4c, 0x00) };
    }
    return { palette.color(QPalette::Window), palette.color(QPalette::WindowText) };
}

QColor diffColor(DiffMark mark, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    switch (mark) {
    case DiffMark::OnlyFailing:
        return dark ? QColor(0x5a, 0x22, 0x22) : QColor(0xff, 0xd6, 0xd6);
    case DiffMark::Changed:
        return dark ? QColor(0x4d, 0x44, 0x1a) : QColor(0xff, 0xf3, 0xbf);
    case DiffMark::OnlyControl:
        return dark ? QColor(0x1d, 0x3a, 0x57) : QColor(0xd6, 0xea, 0xff);
    case DiffMark::FirstRow:
        return dark ? QColor(0x6b, 0x42, 0x10) : QColor(0xff, 0xd5, 0x9e);
    case DiffMark::FirstChars:
        return dark ? QColor(0xb3, 0x5a, 0x00) : QColor(0xff, 0x9a, 0x2e);
    }
    return palette.color(QPalette::Base);
}

} // namespace rankscope
