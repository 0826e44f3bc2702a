// SPDX-License-Identifier: MIT
// More real failure logs from public threads (tests/data/real-found, README there), checked as
// tst_real_cases checks tests/data/real (real_case_check.h).
#include "real_case_check.h"

class TestRealCasesFound : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realCase_data() { realcase::addCaseRows(QStringLiteral(RANKSCOPE_TEST_DATA "/real-found"), 6); }
    void realCase()
    {
        QFETCH(QString, folder);
        realcase::checkCase(folder);
    }
};

QTEST_GUILESS_MAIN(TestRealCasesFound)
#include "tst_real_cases_found.moc"
