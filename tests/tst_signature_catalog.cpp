// SPDX-License-Identifier: MIT
// The shipped catalog loads and passes its own check; broken catalogs report file, entry and field.
#include "signature_catalog.h"
#include "signature_check.h"
#include "signature_matcher.h"
#include "template_render.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <re2/re2.h>

using namespace rankscope;

namespace {
const QString kRepoCatalog = QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures");
const QString kFixtures = QStringLiteral(RANKSCOPE_TEST_DATA "/signatures");

QStringList readLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
}

bool anyContains(const QStringList& list, const QStringList& needles)
{
    for (const QString& s : list) {
        bool all = true;
        for (const QString& n : needles)
            all = all && s.contains(n);
        if (all)
            return true;
    }
    return false;
}
} // namespace

class TestSignatureCatalog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void repoCatalogLoadsAndPassesCheck()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY2(loaded.errors.isEmpty(), qPrintable(loaded.errors.join(QLatin1Char('\n'))));
        QVERIFY(loaded.catalog.signatures.size() >= 42 + 2);
        const CatalogCheckReport report = checkCatalog(loaded.catalog);
        QVERIFY2(report.ok(), qPrintable(report.problems.join(QLatin1Char('\n'))));
        QVERIFY(report.summary().endsWith(QLatin1String(": OK")));
        QCOMPARE(report.signatures, static_cast<int>(loaded.catalog.signatures.size()));
        QVERIFY(report.families >= 12);
        // every file is a family of its own name
        for (const Signature& s : loaded.catalog.signatures)
            QCOMPARE(s.sourceFile, s.family + QStringLiteral(".json"));
    }

    void checkDirReportsLoadErrorsToo()
    {
        const CatalogCheckReport report = checkCatalogDir(kRepoCatalog);
        QVERIFY2(report.ok(), qPrintable(report.problems.join(QLatin1Char('\n'))));
        QVERIFY(report.examplesRun > 100);
    }

    void requiredCoverage_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("role");
        const char* rows[][2] = { { "rccl-hip-ipc-handle-failed", "cause" },
            { "nccl-ib-completion-retry-exceeded", "cause" }, { "nccl-ib-completion-flush", "symptom" },
            { "nccl-ib-completion-local-protection", "cause" },
            { "nccl-ib-completion-remote-access", "cause" },
            { "nccl-ib-completion-rnr-retry-exceeded", "cause" }, { "nccl-shm-too-small", "cause" },
            { "nccl-shm-permission-denied", "cause" }, { "pytorch-watchdog-timeout", "symptom" },
            { "torchrun-child-failed", "symptom" }, { "torchrun-worker-sigkill", "cause" },
            { "host-oom-killer", "cause" }, { "xid-79-fallen-off-bus", "cause" },
            { "nccl-ib-no-device", "context" }, { "rccl-iommu-advisory", "context" },
            { "nccl-net-plugin-not-found", "context" },
            { "nccl-service-thread-connection-closed", "context" },
            { "pytorch-nccl-remote-error", "symptom" }, { "nccl-duplicate-gpu", "cause" } };
        for (const auto& row : rows)
            QTest::newRow(row[0]) << QString::fromLatin1(row[0]) << QString::fromLatin1(row[1]);
    }
    void requiredCoverage()
    {
        QFETCH(QString, id);
        QFETCH(QString, role);
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        const int index = loaded.catalog.indexOf(id);
        QVERIFY2(index >= 0, qPrintable(id));
        QCOMPARE(signatureRoleName(loaded.catalog.signatures[static_cast<std::size_t>(index)].role), role);
    }

    void seedEntriesAreComplete_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("family");
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("siblingsRequired");
        QTest::newRow("rccl")
            << QStringLiteral("rccl-hip-ipc-handle-failed") << QStringLiteral("non-nvidia")
            << QStringLiteral(
                   "[2025-12-12 10:38:57] R9700-Workstation-SH:538971:539025 [2] "
                   "/longer_pathname_so_that_rpms_can_support_packaging_the_debug_info_for_all_os_profiles/"
                   "src/out/ubuntu-24.04/24.04/build/rccl/hipify/src/transport/p2p.cc:256 NCCL WARN "
                   "hipIpcGetMemHandle failed : invalid argument")
            << QStringList { QStringLiteral("nccl-cuda-ipc-handle-failed"),
                   QStringLiteral("nccl-p2p-peer-access-failed"), QStringLiteral("hip-no-rocm-device") };
    }
    void seedEntriesAreComplete()
    {
        QFETCH(QString, id);
        QFETCH(QString, family);
        QFETCH(QString, line);
        QFETCH(QStringList, siblingsRequired);
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        const int index = loaded.catalog.indexOf(id);
        QVERIFY(index >= 0);
        const Signature& s = loaded.catalog.signatures[static_cast<std::size_t>(index)];
        QCOMPARE(s.family, family);
        QCOMPARE(s.role, SignatureRole::Cause);
        QVERIFY(s.checklist.size() >= 5);
        QVERIFY(s.symptoms.size() >= 4);
        QVERIFY(anyContains(s.verify,
            { QStringLiteral("rg -n -F --"), QStringLiteral("{literal}"), QStringLiteral("{logs}") }));
        QVERIFY(anyContains(s.evidenceCommands, { QStringLiteral("rg -n -i") }));
        for (const QString& sib : siblingsRequired)
            QVERIFY2(s.siblings.contains(sib), qPrintable(sib));
        // The fingerprint: an INFO start, an early WARN, an ERROR carrying the symptom.
        QCOMPARE(s.fingerprint.size(), std::size_t { 3 });
        QCOMPARE(s.fingerprint[0].severity, Severity::Info);
        QCOMPARE(s.fingerprint[1].severity, Severity::Warn);
        QCOMPARE(s.fingerprint[2].severity, Severity::Error);
        // Generalised pattern: another architecture / the real NCCL prefix still matches, the literal too.
        const SignatureMatcher matcher(loaded.catalog);
        QCOMPARE(matcher.match(line.toStdString()).signature, index);
        QCOMPARE(matcher.match(s.literal.toStdString()).signature, index);
    }

    void placeholdersAreResolvable()
    {
        // Every {name} a template uses is a context field or a named capture of the entry, so it can be
        // filled.
        const QSet<QString> contextFields = { QStringLiteral("host"), QStringLiteral("rank"),
            QStringLiteral("local_rank"), QStringLiteral("device"), QStringLiteral("nic"),
            QStringLiteral("log_folder"), QStringLiteral("logs"), QStringLiteral("literal"),
            QStringLiteral("peer"), QStringLiteral("pid") };
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        static const QRegularExpression group(QStringLiteral("\\(\\?P<([A-Za-z_][A-Za-z0-9_]*)>"));
        for (const Signature& s : loaded.catalog.signatures) {
            QSet<QString> known = contextFields;
            for (const QString& p : s.patterns) {
                for (auto it = group.globalMatch(p); it.hasNext();)
                    known.insert(it.next().captured(1));
            }
            QStringList templates = s.evidenceCommands + s.verify + s.checklist + s.symptoms;
            templates << s.fix << s.summary << s.literal;
            for (const FixAction& a : s.actions)
                templates << a.name << a.value << a.text << a.reason;
            for (const QString& t : std::as_const(templates)) {
                for (const QString& name : templatePlaceholders(t))
                    QVERIFY2(known.contains(name),
                        qPrintable(s.id + QStringLiteral(": {") + name + QStringLiteral("} in: ") + t));
            }
        }
    }

    void sampleJobGroundTruth()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        const SignatureMatcher matcher(loaded.catalog);
        const QString job = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job/");
        // Rank 7's WARN is a cause, with the peer and the HCA captured.
        const QStringList rank7 = readLines(job + QStringLiteral("nccl.gpu-a02.52117.log"));
        QString warn;
        for (const QString& l : rank7) {
            if (l.contains(QLatin1String("NCCL WARN")))
                warn = l;
        }
        QVERIFY(!warn.isEmpty());
        const MatchResult hit = matcher.match(warn.toStdString());
        QVERIFY(hit);
        const Signature& sig = loaded.catalog.signatures[static_cast<std::size_t>(hit.signature)];
        QCOMPARE(sig.id, QStringLiteral("nccl-ib-completion-retry-exceeded"));
        QCOMPARE(sig.role, SignatureRole::Cause);
        const std::vector<Capture> expected = { { QStringLiteral("nic"), QStringLiteral("mlx5_0") },
            { QStringLiteral("peer"), QStringLiteral("10.10.0.11") },
            { QStringLiteral("peer_port"), QStringLiteral("45819") } };
        QCOMPARE(hit.captures, expected);

        // No INFO line of either NCCL log is a cause or a symptom (at most context).
        QStringList infoLines = rank7 + readLines(job + QStringLiteral("nccl.gpu-a01.41872.log"));
        for (const QString& l : std::as_const(infoLines)) {
            if (!l.contains(QLatin1String("NCCL INFO")))
                continue;
            const MatchResult r = matcher.match(l.toStdString());
            if (r)
                QVERIFY2(loaded.catalog.signatures[static_cast<std::size_t>(r.signature)].role
                        == SignatureRole::Context,
                    qPrintable(l));
        }

        // Node 0 console: watchdog lines are symptoms carrying the sequence number; the summary is a symptom.
        int watchdog = 0, summary = 0, watchdogLines = 0;
        for (const QString& l : readLines(job + QStringLiteral("torchrun.gpu-a01.console.log"))) {
            watchdogLines +=
                l.contains(QLatin1String("Watchdog caught collective operation timeout")) ? 1 : 0;
            const MatchResult r = matcher.match(l.toStdString());
            if (!r)
                continue;
            const Signature& s = loaded.catalog.signatures[static_cast<std::size_t>(r.signature)];
            QVERIFY2(s.role != SignatureRole::Cause, qPrintable(l)); // node 0 only shows fallout
            if (s.id == QLatin1String("pytorch-watchdog-timeout")) {
                ++watchdog;
                QVERIFY(std::find(r.captures.begin(), r.captures.end(),
                            Capture { QStringLiteral("seq"), QStringLiteral("4812") })
                    != r.captures.end());
            }
            if (s.id == QLatin1String("torchrun-child-failed"))
                ++summary;
        }
        QVERIFY(watchdogLines >= 4); // one per rank of node 0, plus the re-thrown exception texts
        QCOMPARE(watchdog, watchdogLines);
        QVERIFY(summary >= 1);
    }

    void builtinResourceIsReadable()
    {
        initBuiltinSignatures();
        const QStringList files =
            QDir(QStringLiteral(":/signatures")).entryList({ QStringLiteral("*.json") });
        QVERIFY(files.contains(QStringLiteral("ib.json")));
        const CatalogLoadResult builtin = loadCatalogDir(QStringLiteral(":/signatures"));
        const CatalogLoadResult source = loadCatalogDir(kRepoCatalog);
        QVERIFY2(builtin.errors.isEmpty(), qPrintable(builtin.errors.join(QLatin1Char('\n'))));
        QCOMPARE(builtin.catalog.signatures.size(), source.catalog.signatures.size());
        const CatalogLoadResult def = loadDefaultCatalog();
        QVERIFY(def.ok());
        QCOMPARE(def.catalog.signatures.size(), source.catalog.signatures.size());
    }

    void userCatalogReplacesBuiltinEntry()
    {
        const CatalogLoadResult merged = loadDefaultCatalog({ kFixtures + QStringLiteral("/override") });
        QVERIFY2(merged.ok(), qPrintable(merged.errors.join(QLatin1Char('\n'))));
        const CatalogLoadResult plain = loadDefaultCatalog();
        QCOMPARE(merged.catalog.signatures.size(), plain.catalog.signatures.size());
        const int index = merged.catalog.indexOf(QStringLiteral("nccl-ib-completion-retry-exceeded"));
        QCOMPARE(merged.catalog.signatures[static_cast<std::size_t>(index)].sourceFile,
            QStringLiteral("override.json"));
        QCOMPARE(merged.notes.size(), 1);
        QVERIFY(merged.notes.first().contains(QLatin1String("replaces the entry from ib.json")));
    }

    void brokenCatalogKeepsGoodEntries()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kFixtures + QStringLiteral("/broken"));
        QStringList ids;
        for (const Signature& s : loaded.catalog.signatures)
            ids << s.id;
        QCOMPARE(ids,
            (QStringList { QStringLiteral("fixture-good-one"), QStringLiteral("fixture-good-two"),
                QStringLiteral("fixture-mixed-good") }));
        QCOMPARE(loaded.errors.size(), 3);
        QVERIFY2(anyContains(loaded.errors,
                     { QStringLiteral("bad-json.json: JSON parse error"), QStringLiteral("line 3") }),
            qPrintable(loaded.errors.join(QLatin1Char('\n'))));
        QVERIFY(anyContains(loaded.errors,
            { QStringLiteral(
                "mixed.json: entry 1 (fixture-bad-pattern): field 'patterns'[1]: RE2 error: missing )") }));
        QVERIFY(anyContains(loaded.errors,
            { QStringLiteral("mixed.json: entry 2 (fixture-missing-fix): field 'fix': missing") }));
    }

    // Patterns see the raw line, and real lines come behind wrappers (a pod's clock, "3: ", "> "): a
    // pattern anchored at the line's start is refused with its entry and index; unanchored it loads.
    void anchoredPatternIsRefused_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<bool>("refused");
        QTest::newRow("caret") << QStringLiteral("^\\s*Watchdog caught collective operation timeout$")
                               << true;
        QTest::newRow("flags, then caret") << QStringLiteral("(?i)^watchdog caught collective") << true;
        QTest::newRow("\\A") << QStringLiteral("\\AWatchdog caught collective") << true;
        QTest::newRow("word boundary")
            << QStringLiteral("\\bWatchdog caught collective operation timeout$") << false;
        QTest::newRow("caret inside a group is no anchor at the start")
            << QStringLiteral("(?:^|\\s)Watchdog caught collective") << false;
    }
    void anchoredPatternIsRefused()
    {
        QFETCH(QString, pattern);
        QFETCH(bool, refused);
        QFile repo(kRepoCatalog + QStringLiteral("/pytorch.json"));
        QVERIFY(repo.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(repo.readAll());
        // The repository's own entry, with its bare-watchdog pattern replaced.
        const QString own = QStringLiteral("\"\\\\bWatchdog caught collective operation timeout:?\\\\s*$\"");
        QVERIFY(text.contains(own));
        QString escaped = pattern;
        escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
        text.replace(own, QLatin1Char('"') + escaped + QLatin1Char('"'));
        QTemporaryDir dir;
        QFile out(dir.filePath(QStringLiteral("pytorch.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        const CatalogLoadResult loaded = loadCatalogFile(out.fileName());
        const bool said = anyContains(loaded.errors, { QStringLiteral("must not be anchored at '^'") });
        QVERIFY2(said == refused, qPrintable(loaded.errors.join(QLatin1Char('\n'))));
        if (refused)
            QVERIFY(anyContains(loaded.errors, { QStringLiteral("field 'patterns'[") }));
    }

    // A refinement's `env` condition names variables: NAME or NAME=VALUE, nothing else; the error names the
    // entry and the field.
    void envConditionIsChecked()
    {
        QFile repo(kRepoCatalog + QStringLiteral("/topology.json"));
        QVERIFY(repo.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(repo.readAll());
        const QString own = QStringLiteral("\"env\": [\n          \"NCCL_HOSTID\"\n        ]");
        QVERIFY2(text.contains(own), "topology.json's NCCL_HOSTID refinement");
        QTemporaryDir dir;
        const auto load = [&](const QString& replacement) {
            QString changed = text;
            changed.replace(own, replacement);
            QFile out(dir.filePath(QStringLiteral("topology.json")));
            if (!out.open(QIODevice::WriteOnly))
                return QStringList { QStringLiteral("cannot write") };
            out.write(changed.toUtf8());
            out.close();
            return loadCatalogFile(out.fileName()).errors;
        };
        QVERIFY(load(QStringLiteral("\"env\": [\"NCCL_ALGO=CollNet\"]")).isEmpty());
        const QStringList bad = load(QStringLiteral("\"env\": [\"nccl hostid\"]"));
        QVERIFY2(anyContains(
                     bad, { QStringLiteral("nccl-ring-not-loop-back-hostid"), QStringLiteral("when.env") }),
            qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // The loader keeps each pattern it compiled, for the matcher; the same pattern text, compiled.
    void compiledPatternsMatchThePatterns()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY(loaded.ok());
        int compiled = 0;
        for (const Signature& s : loaded.catalog.signatures) {
            QCOMPARE(s.compiledPatterns.size(), static_cast<std::size_t>(s.patterns.size()));
            for (int i = 0; i < s.patterns.size(); ++i) {
                const auto& re = s.compiledPatterns[static_cast<std::size_t>(i)];
                QVERIFY2(re && re->ok(), qPrintable(s.id));
                QCOMPARE(QString::fromStdString(re->pattern()), s.patterns[i]);
                ++compiled;
            }
        }
        QVERIFY(compiled > 100);
    }

    void checkFindsExampleAndSiblingProblems()
    {
        const CatalogCheckReport report = checkCatalogDir(kFixtures + QStringLiteral("/failing-check"));
        QVERIFY(!report.ok());
        const QString all = report.problems.join(QLatin1Char('\n'));
        QCOMPARE(report.problems.size(), 4);
        QVERIFY2(all.contains(QLatin1String(
                     "check.json: entry 0 (fixture-example-miss): field 'examples.match'[0]: not matched")),
            qPrintable(all));
        QVERIFY(all.contains(QLatin1String("check.json: entry 0 (fixture-example-miss): field 'siblings'[0]: "
                                           "unknown id 'fixture-does-not-exist'")));
        QVERIFY(all.contains(QLatin1String("check.json: entry 1 (fixture-nomatch-hit): field "
                                           "'examples.no_match'[0]: matched by the entry")));
        // A literal with one run's value (a port) instead of a placeholder is in no real line.
        QVERIFY2(
            all.contains(QLatin1String("check.json: entry 2 (fixture-literal-paraphrase): field 'literal': "
                                       "\"omega port 29500\" is in none of the entry's matched examples")),
            qPrintable(all));
        QVERIFY(report.summary().endsWith(QLatin1String("4 problems")));
    }

    // Every entry says what to do as typed actions, and tells itself apart from each sibling by exactly
    // one discriminator: the pairs are covered from both sides.
    void everyEntryHasActionsAndEverySiblingADiscriminator()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY(loaded.ok());
        int pairs = 0;
        for (const Signature& s : loaded.catalog.signatures) {
            QVERIFY2(!s.actions.empty(), qPrintable(s.id));
            QCOMPARE(s.discriminators.size(), static_cast<std::size_t>(s.siblings.size()));
            for (const QString& sib : s.siblings) {
                const auto n = std::count_if(s.discriminators.begin(), s.discriminators.end(),
                    [&](const Discriminator& d) { return d.sibling == sib; });
                QVERIFY2(n == 1, qPrintable(s.id + QStringLiteral(" / ") + sib));
                ++pairs;
            }
            for (const FixAction& a : s.actions)
                QVERIFY2(!a.reason.trimmed().isEmpty(), qPrintable(s.id));
        }
        QVERIFY(pairs >= 400);
        const CatalogCheckReport report = checkCatalog(loaded.catalog);
        QVERIFY2(report.ok(), qPrintable(report.problems.join(QLatin1Char('\n'))));
    }

    void actionErrorsNameFileEntryAndField()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kFixtures + QStringLiteral("/bad-actions"));
        const QString all = loaded.errors.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("actions.json: entry 0 (fixture-unknown-kind): field "
                                            "'actions'[0].kind: unknown kind 'reboot'")),
            qPrintable(all));
        QVERIFY2(all.contains(QLatin1String(
                     "actions.json: entry 1 (fixture-env-no-value): field 'actions'[0].value: missing")),
            qPrintable(all));
        QVERIFY2(all.contains(QLatin1String(
                     "actions.json: entry 2 (fixture-non-sibling): field "
                     "'discriminators'[0].sibling: 'fixture-env-no-value' is not in 'siblings'")),
            qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("actions.json: entry 4 (fixture-bad-container): field "
                                            "'actions'[0].name: must be one of shm-size")),
            qPrintable(all));
        QCOMPARE(loaded.errors.size(), 4);
        QCOMPARE(loaded.catalog.signatures.size(), std::size_t { 1 });
        const Signature& good = loaded.catalog.signatures.front();
        QCOMPARE(good.id, QStringLiteral("fixture-actions-good"));
        QCOMPARE(good.actions.size(), std::size_t { 3 });
        QCOMPARE(fixActionKindName(good.actions[0].kind), QStringLiteral("env"));
        QCOMPARE(good.actions[1].kind, FixActionKind::Timeout);
        QCOMPARE(good.actions[2].value, QStringLiteral("16g"));
        for (FixActionKind k : allFixActionKinds())
            QCOMPARE(parseFixActionKind(fixActionKindName(k)), std::optional<FixActionKind>(k));
        QVERIFY(!parseFixActionKind(QStringLiteral("reboot")));
    }

    void checkRequiresActionsAndADiscriminatorPerSibling()
    {
        const CatalogCheckReport report =
            checkCatalogDir(kFixtures + QStringLiteral("/check-discriminators"));
        const QString all = report.problems.join(QLatin1Char('\n'));
        QVERIFY2(
            all.contains(QLatin1String("pairs.json: entry 0 (fixture-pair-a): field 'discriminators': none "
                                       "for sibling 'fixture-pair-b'")),
            qPrintable(all));
        QVERIFY2(
            all.contains(QLatin1String("pairs.json: entry 1 (fixture-pair-b): field 'actions': missing")),
            qPrintable(all));
        QCOMPARE(report.problems.size(), 2);
    }

    void missingDirectoryIsAnError()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kFixtures + QStringLiteral("/does-not-exist"));
        QVERIFY(loaded.catalog.signatures.empty());
        QCOMPARE(loaded.errors.size(), 1);
        QVERIFY(loaded.errors.first().contains(QLatin1String("does not exist")));
    }
};

QTEST_GUILESS_MAIN(TestSignatureCatalog)
#include "tst_signature_catalog.moc"
