// SPDX-License-Identifier: MIT
// Colours for severities and roles, shared by the timeline, the log view and the topology graph.
// They adapt to the palette so that dark mode stays readable.
#pragma once

#include "log_model.h"

#include <QColor>
#include <QPalette>

namespace rankscope {

bool isDarkPalette(const QPalette& palette); // window darker than mid-grey
QColor severityColor(Severity s, const QPalette& palette); // strokes, markers and tints
// Text of a WARN-or-worse line: darker (light theme) or lighter (dark) than severityColor, so that it
// reads at 4.5:1 or more on Base and on any severity's tint of it (severityColor at alpha 60 or less).
QColor severityTextColor(Severity s, const QPalette& palette);
// The initiating event: one unmistakable hue, lighter on a dark palette (3:1 and more on Base in both).
QColor initiatingColor(const QPalette& palette);
// A label or badge filled with the initiating hue: the fill and its text (4.5:1 and more in both themes).
struct ColorPair;
ColorPair initiatingBadge(const QPalette& palette);
QColor collateralColor(const QPalette& palette);
QColor sysPathColor(const QPalette& palette); // SYS (cross-socket) paths: red in both themes

// Topology: the colour of a GPU-to-GPU or GPU-to-NIC path by how near it is, and the tint of a device box.
enum class LinkTone
{
    Direct, // NVLink, XGMI, PIX
    Switch, // PXB
    HostBridge, // PHB
    Node, // NODE
    Sys, // SYS
};
QColor linkColor(LinkTone tone, const QPalette& palette);
enum class DeviceTone
{
    Gpu,
    Nic,
};
QColor deviceColor(DeviceTone tone, const QPalette& palette); // mixed into Base for the box's fill

// The one table of the window's other colours, each with a light and a dark variant chosen by the palette.
enum class Tone
{
    Failure, // the banner of a diagnosis that found the failure; FAIL
    Healthy, // the banner of a run without a failure; PASS
    Unsure, // INCONCLUSIVE
};
struct ColorPair
{
    QColor background;
    QColor text;
};
ColorPair toneColors(Tone tone, const QPalette& palette);
enum class DiffMark
{
    OnlyFailing,
    Changed,
    OnlyControl,
    FirstRow, // the row of the first difference
    FirstChars, // the differing characters within it
};
QColor diffColor(DiffMark mark, const QPalette& palette); // a background; the text keeps QPalette::Text

} // namespace rankscope
