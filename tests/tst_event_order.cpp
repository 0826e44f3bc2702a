// SPDX-License-Identifier: MIT
// The order of events across files: by time, and at equal times NCCL's own WARN line first, then the
// milder severity, then file and line; events without any time come last, in file order. The scan notes
// " NCCL WARN " in each line's bytes, and the order is computed while attribution runs: these rows pin the
// result down on real line shapes.
#include "event_order.h"
#include "ingest.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

namespace {

void write(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    QFile f(dir.filePath(name));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// Each event's message without Python logging's "- name - LEVEL - " columns.
QStringList messages(const Incident& inc)
{
    QStringList out;
    for (const LogEvent& e : inc.events)
        out << e.message.section(QStringLiteral(" - "), -1);
    return out;
}

} // namespace

class TestEventOrder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Stamps without a year (vLLM's "12-08 20:46:56", glog's "E1208 20:46:56.1") take the year the log was
    // written, or the year before when their day comes after that date; a stamp with a year decides.
    void yearlessStampsNeverLieAfterTheLogWasWritten()
    {
        const auto scanWith = [](int year, int month, int day) {
            FileScan s;
            StreamStats st;
            st.hasStamp = true;
            st.firstStamp.kind = StampKind::Glog;
            st.firstStamp.year = year;
            st.firstStamp.month = month;
            st.firstStamp.day = day;
            s.streams.push_back(st);
            s.yearSeen = year;
            return s;
        };
        const QDate written(2026, 12, 6);
        QCOMPARE(incidentYear({ scanWith(0, 12, 8) }, written), 2025);
        QCOMPARE(incidentYear({ scanWith(0, 12, 7) }, written), 2026); // a clock a day ahead (time zones)
        QCOMPARE(incidentYear({ scanWith(0, 3, 14) }, written), 2026);
        QCOMPARE(incidentYear({ scanWith(0, 12, 8), scanWith(2024, 12, 8) }, written), 2024);
        QCOMPARE(incidentYear({ scanWith(0, 1, 2) }, QDate(2027, 1, 1)), 2027);
    }

    // The year a reader sees in every date rests on that guess when no clock says it: the incident says so.
    void assumedYearIsSaid()
    {
        QTemporaryDir dir;
        write(dir, QStringLiteral("glog.log"),
            "[rank0]:[E1208 20:46:56.100000 ProcessGroupNCCL.cpp:1] [Rank 0] Watchdog caught collective "
            "operation "
            "timeout\n");
        write(dir, QStringLiteral("iso.log"), "2024-12-08 20:46:57,000 - ERROR - train.py:1 - boom\n");
        const auto load = [&dir](const QString& name) {
            LoadOptions o;
            o.paths = { dir.filePath(name) };
            return loadIncidents(o).incidents.back().warnings.join(u'\n');
        };
        QVERIFY2(load(QStringLiteral("glog.log")).contains(QLatin1String("the clocks carry no year")),
            qPrintable(load(QStringLiteral("glog.log"))));
        QVERIFY(!load(QStringLiteral("iso.log")).contains(QLatin1String("no year")));
    }

    void equalTimesPutNcclWarnFirstThenMilderSeverity()
    {
        QTemporaryDir dir;
        // a.log sorts first by file, and its lines come first in it, yet NCCL's WARN of the same second
        // leads; then the WARN before the ERROR.
        write(dir, QStringLiteral("a.log"),
            "2026-03-14 02:17:44,000 - train - ERROR - step failed\n"
            "2026-03-14 02:17:44,000 - train - WARNING - retrying\n"
            "2026-03-14 02:17:43,000 - train - ERROR - earlier failure\n");
        write(dir, QStringLiteral("b.log"),
            "[2026-03-14 02:17:44] gpu-a02:52117:52203 [3] transport/net_ib.cc:2458 NCCL WARN NET/IB: Got "
            "completion from peer 10.10.0.12<45819> with status=12 opcode=0 len=0 vendor err 129\n");
        LoadOptions o;
        o.paths = { dir.path() };
        const Incident inc = loadIncidents(o).incidents.front();
        QCOMPARE(messages(inc),
            (QStringList { QStringLiteral("earlier failure"),
                QStringLiteral("NET/IB: Got completion from peer 10.10.0.12<45819> with status=12 opcode=0 "
                               "len=0 vendor err 129"),
                QStringLiteral("retrying"), QStringLiteral("step failed") }));
        QCOMPARE(inc.events[1].rank, -1); // attribution ran meanwhile and found no rank for it
    }

    void quotedNcclWarnCountsToo()
    {
        QTemporaryDir dir;
        // A line that only quotes NCCL's WARN behind a rank prefix still counts as NCCL's line.
        write(dir, QStringLiteral("a.log"), "2026-03-14 02:17:44,000 - train - WARNING - plain warning\n");
        write(dir, QStringLiteral("b.log"),
            "[rank3]:2026-03-14 02:17:44,000 - train - WARNING - last seen: x NCCL WARN y\n");
        LoadOptions o;
        o.paths = { dir.path() };
        const Incident inc = loadIncidents(o).incidents.front();
        QCOMPARE(messages(inc).size(), 2);
        QVERIFY2(inc.events[0].text.contains(QLatin1String(" NCCL WARN ")),
            qPrintable(messages(inc).join(QLatin1Char('|'))));
        QCOMPARE(inc.events[0].rank, 3);
    }

    void untimedEventsFollowInFileOrder()
    {
        QTemporaryDir dir;
        write(dir, QStringLiteral("a.log"), "ERROR: first untimed\nERROR: second untimed\n");
        write(dir, QStringLiteral("b.log"), "2026-03-14 02:17:44,000 - train - ERROR - timed\n");
        LoadOptions o;
        o.paths = { dir.path() };
        const Incident inc = loadIncidents(o).incidents.front();
        QCOMPARE(messages(inc),
            (QStringList { QStringLiteral("timed"), QStringLiteral("ERROR: first untimed"),
                QStringLiteral("ERROR: second untimed") }));
        QVERIFY(inc.warnings.join(QLatin1Char('\n')).contains(QLatin1String("have no timestamps")));
    }
};

QTEST_GUILESS_MAIN(TestEventOrder)
#include "tst_event_order.moc"
