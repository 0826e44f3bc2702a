// SPDX-License-Identifier: MIT
// The answer to "did the fix work?": a PASS (green) or FAIL (red) banner, what happened to each signature,
// and the evidence the verdict rests on.
#pragma once

#include "verify_fix.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QTableWidget;

namespace rankscope {

class VerifyView : public QWidget
{
    Q_OBJECT
public:
    explicit VerifyView(QWidget* parent = nullptr);

    void setResult(const VerifyResult& result);
    void clear();

    QLabel* banner() const { return m_banner; }
    QTableWidget* outcomesTable() const { return m_table; }
    QListWidget* evidenceList() const { return m_evidence; }

private:
    QLabel* m_banner = nullptr;
    QTableWidget* m_table = nullptr;
    QListWidget* m_evidence = nullptr;
};

} // namespace rankscope
