// SPDX-License-Identifier: MIT
#include "command_list.h"

#include "text_block.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QGridLayout>
#include <QTimer>
#include <QToolButton>

namespace rankscope {

namespace {
constexpr int kCopiedMs = 1500; // how long a copy button says "Copied"

QString tr(const char* text)
{
    return QCoreApplication::translate("rankscope::CommandList", text);
}
} // namespace

QWidget* makeCommandList(const QStringList& commands)
{
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setColumnStretch(0, 1);
    int row = 0;
    for (const QString& cmd : commands) {
        // A command wraps anywhere inside its long words; selecting and copying it gives it back whole.
        auto* text = new TextBlock(cmd, Qt::PlainText);
        text->setObjectName(QStringLiteral("command"));
        text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        text->setFrameShape(QFrame::StyledPanel);
        text->viewport()->setAutoFillBackground(true);
        text->viewport()->setBackgroundRole(QPalette::AlternateBase);
        text->setPadding(4);
        auto* copy = new QToolButton;
        copy->setText(tr("Copy"));
        copy->setToolTip(tr("Copy this command (it is never run by Rankscope)"));
        copy->setObjectName(QStringLiteral("copyCommand"));
        // Feedback where the user looks: the button says "Copied" for a moment and gets its word back.
        QObject::connect(copy, &QToolButton::clicked, copy, [cmd, copy] {
            QApplication::clipboard()->setText(cmd);
            copy->setText(tr("Copied"));
            QTimer::singleShot(kCopiedMs, copy, [copy] { copy->setText(tr("Copy")); });
        });
        grid->addWidget(text, row, 0);
        grid->addWidget(copy, row, 1, Qt::AlignTop);
        ++row;
    }
    return box;
}

} // namespace rankscope
