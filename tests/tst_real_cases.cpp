// SPDX-License-Identifier: MIT
// Real failure logs from public threads (tests/data/real, copied from ../shared/real-cases), one row per
// case; the checks are in real_case_check.h.
#include "real_case_check.h"

class TestRealCases : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realCase_data() { realcase::addCaseRows(QStringLiteral(RANKSCOPE_TEST_DATA "/real"), 20); }
    void realCase()
    {
        QFETCH(QString, folder);
        realcase::checkCase(folder);
    }
};

QTEST_GUILESS_MAIN(TestRealCases)
#include "tst_real_cases.moc"
