// SPDX-License-Identifier: MIT
#include "verify_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rankscope {

namespace {

QString ranks(const std::vector<int>& v)
{
    return v.empty() ? QStringLiteral("—") : formatRankRanges(v);
}

} // namespace

VerifyView::VerifyView(QWidget* parent)
    : QWidget(parent)
{
    m_banner = new QLabel(this);
    m_banner->setAlignment(Qt::AlignCenter);
    m_banner->setMargin(8);
    m_table = new QTableWidget(0, 4, this);
    m_table->setHorizontalHeaderLabels(
        { tr("Signature"), tr("Outcome"), tr("Ranks before"), tr("Ranks after") });
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_evidence = new QListWidget(this);
    m_evidence->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(m_table, 2);
    layout->addWidget(m_evidence, 1);
    clear();
}

void VerifyView::clear()
{
    m_banner->setText(tr("No fix verified yet. Use File > Verify Fix With..."));
    m_banner->setStyleSheet(QString());
    m_table->setRowCount(0);
    m_evidence->clear();
}

void VerifyView::setResult(const VerifyResult& r)
{
    clear();
    m_banner->setText(r.pass ? tr("PASS — the fix removed the initiating signature")
                             : tr("FAIL — the fix is not verified"));
    // Fixed colours: the verdict must read the same in light and dark themes.
    m_banner->setStyleSheet(r.pass
            ? QStringLiteral("QLabel{background:#1e7d32;color:white;font-weight:bold;}")
            : QStringLiteral("QLabel{background:#c62828;color:white;font-weight:bold;}"));
    m_table->setRowCount(static_cast<int>(r.outcomes.size()));
    for (size_t i = 0; i < r.outcomes.size(); ++i) {
        const SignatureOutcome& o = r.outcomes[i];
        const int row = static_cast<int>(i);
        auto* id = new QTableWidgetItem(o.initiating ? tr("%1 (initiating)").arg(o.id) : o.id);
        id->setToolTip(o.title);
        m_table->setItem(row, 0, id);
        m_table->setItem(row, 1, new QTableWidgetItem(outcomeName(o.kind)));
        m_table->setItem(row, 2, new QTableWidgetItem(ranks(o.ranksBefore)));
        m_table->setItem(row, 3, new QTableWidgetItem(ranks(o.ranksAfter)));
    }
    m_evidence->addItems(r.evidence);
    const auto orUnknown = [this](const QString& s) { return s.isEmpty() ? tr("unknown") : s; };
    m_evidence->addItem(
        tr("Last step: %1 before, %2 after").arg(orUnknown(r.lastStepBefore), orUnknown(r.lastStepAfter)));
    const auto seq = [this](qint64 v) { return v >= 0 ? QString::number(v) : tr("unknown"); };
    m_evidence->addItem(
        tr("Last SeqNum: %1 before, %2 after").arg(seq(r.lastSeqBefore), seq(r.lastSeqAfter)));
}

} // namespace rankscope
