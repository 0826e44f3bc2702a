// SPDX-License-Identifier: MIT
// Catalog loading: nlohmann_json with exceptions disabled, RE2 to validate every pattern up front.
#include "signature_catalog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <re2/re2.h>
#include <thread>

// Q_INIT_RESOURCE must be used at global scope (it declares the generated initialiser).
static void initBuiltinSignatureResource()
{
    Q_INIT_RESOURCE(builtin_signatures);
}

namespace rankscope {

namespace {

using nlohmann::json;

const QStringList kCategories = { QStringLiteral("hardware"), QStringLiteral("communication"),
    QStringLiteral("configuration"), QStringLiteral("software"), QStringLiteral("resource") };

const QSet<QString> kKnownFields = { QStringLiteral("id"), QStringLiteral("title"), QStringLiteral("literal"),
    QStringLiteral("patterns"), QStringLiteral("role"), QStringLiteral("family"), QStringLiteral("stacks"),
    QStringLiteral("category"), QStringLiteral("summary"), QStringLiteral("explanation"),
    QStringLiteral("symptoms"), QStringLiteral("checklist"), QStringLiteral("fix"),
    QStringLiteral("evidence_commands"), QStringLiteral("verify"), QStringLiteral("siblings"),
    QStringLiteral("references"), QStringLiteral("examples"), QStringLiteral("severity"),
    QStringLiteral("fingerprint"), QStringLiteral("fallback"), QStringLiteral("hint"),
    QStringLiteral("network_fallback"), QStringLiteral("innermost_frame"), QStringLiteral("refines"),
    QStringLiteral("when"), QStringLiteral("stall"), QStringLiteral("actions"),
    QStringLiteral("discriminators") };

// Collects the message of a JSON syntax error (the DOM parser with exceptions off only says "discarded").
struct ParseErrorCollector : nlohmann::json_sax<json>
{
    std::string message;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override
    {
        message = ex.what();
        return false;
    }
};

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

std::optional<Severity> parseSeverity(const QString& name)
{
    const QString n = name.trimmed().toUpper();
    if (n == QLatin1String("INFO"))
        return Severity::Info;
    if (n == QLatin1String("WARN") || n == QLatin1String("WARNING"))
        return Severity::Warn;
    if (n == QLatin1String("ERROR"))
        return Severity::Error;
    if (n == QLatin1String("FATAL"))
        return Severity::Fatal;
    return std::nullopt;
}

// Reads the fields of one entry, recording each problem with file, entry and field.
class EntryReader
{
public:
    EntryReader(const json& entry, QString where, QStringList& errors)
        : m_entry(entry)
        , m_where(std::move(where))
        , m_errors(errors)
    {
    }

    // field is the bare name; suffix addresses an element ("[1]", "[0].pattern").
    void error(const QString& field, const QString& message, const QString& suffix = {})
    {
        m_errors << m_where + QStringLiteral(": field '") + field + QLatin1Char('\'') + suffix
                + QStringLiteral(": ") + message;
        m_failed = true;
    }
    static QString at(std::size_t i) { return QLatin1Char('[') + QString::number(i) + QLatin1Char(']'); }
    bool failed() const { return m_failed; }

    QString string(const char* field, bool required = true)
    {
        const QString name = QLatin1String(field);
        if (!m_entry.contains(field)) {
            if (required)
                error(name, QStringLiteral("missing"));
            return {};
        }
        const json& v = m_entry.at(field);
        if (!v.is_string()) {
            error(name, QStringLiteral("must be a string"));
            return {};
        }
        QString s = qs(v.get_ref<const std::string&>());
        if (required && s.trimmed().isEmpty())
            error(name, QStringLiteral("must not be empty"));
        return s;
    }

    QStringList list(const json& parent, const char* field, bool nonEmpty, const QString& label)
    {
        if (!parent.contains(field)) {
            error(label, QStringLiteral("missing"));
            return {};
        }
        const json& v = parent.at(field);
        if (!v.is_array()) {
            error(label, QStringLiteral("must be an array of strings"));
            return {};
        }
        QStringList out;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_string() || v[i].get_ref<const std::string&>().empty()) {
                error(label, QStringLiteral("must be a non-empty string"), at(i));
                continue;
            }
            out << qs(v[i].get_ref<const std::string&>());
        }
        if (nonEmpty && v.empty())
            error(label, QStringLiteral("must not be empty"));
        return out;
    }
    QStringList list(const char* field, bool nonEmpty)
    {
        return list(m_entry, field, nonEmpty, QLatin1String(field));
    }

    // The compiled pattern, or null after reporting why it does not compile.
    std::shared_ptr<const RE2> checkPattern(
        const QString& field, const QString& suffix, const QString& pattern)
    {
        RE2::Options options;
        options.set_log_errors(false);
        auto re = std::make_shared<const RE2>(pattern.toStdString(), options);
        if (re->ok())
            return re;
        error(field, QStringLiteral("RE2 error: ") + qs(re->error()), suffix);
        return nullptr;
    }

private:
    const json& m_entry;
    QString m_where;
    QStringList& m_errors;
    bool m_failed = false;
};

// "^..." or "(?i)^...": the pattern can only match at the start of the line.
bool startsAtLineStart(const QString& pattern)
{
    qsizetype i = 0;
    while (pattern.mid(i, 2) == QLatin1String("(?")) { // leading flag groups: (?i), (?s)
        const qsizetype close = pattern.indexOf(QLatin1Char(')'), i);
        if (close < 0 || pattern.mid(i, close - i).contains(QLatin1Char(':')))
            break;
        i = close + 1;
    }
    return pattern.mid(i, 1) == QLatin1String("^") || pattern.mid(i, 2) == QLatin1String("\\A");
}

// A string member of an action or discriminator object; "" when absent.
QString member(const json& object, const char* key)
{
    if (!object.contains(key) || !object.at(key).is_string())
        return {};
    return qs(object.at(key).get_ref<const std::string&>());
}

std::vector<FixAction> readActions(EntryReader& r, const json& v)
{
    static const QSet<QString> keys = { QStringLiteral("kind"), QStringLiteral("name"),
        QStringLiteral("value"), QStringLiteral("text"), QStringLiteral("reason") };
    static const QRegularExpression envName(QStringLiteral("^[A-Z_][A-Z0-9_]*$"));
    static const QRegularExpression seconds(QStringLiteral("^[1-9][0-9]*$"));
    const QString field = QStringLiteral("actions");
    std::vector<FixAction> out;
    if (!v.is_array()) {
        r.error(field, QStringLiteral("must be an array of {kind, name, value, text, reason}"));
        return out;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
        const QString at = EntryReader::at(i);
        const json& a = v[i];
        if (!a.is_object()) {
            r.error(field, QStringLiteral("must be an object"), at);
            continue;
        }
        bool bad = false;
        auto fail = [&](const QString& sub, const QString& message) {
            r.error(field, message, at + sub);
            bad = true;
        };
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!keys.contains(qs(it.key())))
                fail(QLatin1Char('.') + qs(it.key()), QStringLiteral("unknown field"));
            else if (!it->is_string())
                fail(QLatin1Char('.') + qs(it.key()), QStringLiteral("must be a string"));
        }
        FixAction act;
        const QString kind = member(a, "kind");
        const auto parsed = parseFixActionKind(kind);
        if (!parsed) {
            QStringList names;
            for (FixActionKind k : allFixActionKinds())
                names << fixActionKindName(k);
            fail(QStringLiteral(".kind"),
                (kind.isEmpty() ? QStringLiteral("missing")
                                : QStringLiteral("unknown kind '") + kind + QLatin1Char('\''))
                    + QStringLiteral(" (one of ") + names.join(QStringLiteral(", ")) + QLatin1Char(')'));
            continue;
        }
        act.kind = *parsed;
        act.name = member(a, "name");
        act.value = member(a, "value");
        act.text = member(a, "text");
        act.reason = member(a, "reason");
        if (act.reason.trimmed().isEmpty())
            fail(QStringLiteral(".reason"), QStringLiteral("missing: every action says why"));
        switch (act.kind) {
        case FixActionKind::Env:
            if (!envName.match(act.name).hasMatch())
                fail(QStringLiteral(".name"),
                    QStringLiteral("must be an environment variable name [A-Z_][A-Z0-9_]*"));
            if (act.value.trimmed().isEmpty())
                fail(QStringLiteral(".value"), QStringLiteral("missing: the value to set"));
            break;
        case FixActionKind::Timeout:
            if (!seconds.match(act.value).hasMatch())
                fail(QStringLiteral(".value"), QStringLiteral("must be the timeout in whole seconds"));
            break;
        case FixActionKind::Container:
            if (!containerSettingNames().contains(act.name))
                fail(QStringLiteral(".name"),
                    QStringLiteral("must be one of ") + containerSettingNames().join(QStringLiteral(", ")));
            else if (containerSettingNeedsValue(act.name) && act.value.trimmed().isEmpty())
                fail(QStringLiteral(".value"),
                    QStringLiteral("missing: '") + act.name + QStringLiteral("' needs a value"));
            break;
        case FixActionKind::Kernel:
        case FixActionKind::Node:
        case FixActionKind::Code:
            if (act.text.trimmed().isEmpty())
                fail(QStringLiteral(".text"), QStringLiteral("missing: the action, one sentence"));
            break;
        case FixActionKind::Upgrade:
            if (act.name.trimmed().isEmpty())
                fail(QStringLiteral(".name"), QStringLiteral("missing: the component to upgrade"));
            if (act.value.trimmed().isEmpty())
                fail(QStringLiteral(".value"), QStringLiteral("missing: the version that fixes it"));
            break;
        }
        if (!bad)
            out.push_back(std::move(act));
    }
    return out;
}

std::vector<Discriminator> readDiscriminators(EntryReader& r, const json& v)
{
    static const QSet<QString> keys = { QStringLiteral("sibling"), QStringLiteral("experiment"),
        QStringLiteral("outcome") };
    const QString field = QStringLiteral("discriminators");
    std::vector<Discriminator> out;
    if (!v.is_array()) {
        r.error(field, QStringLiteral("must be an array of {sibling, experiment, outcome}"));
        return out;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
        const QString at = EntryReader::at(i);
        const json& d = v[i];
        if (!d.is_object()) {
            r.error(field, QStringLiteral("must be an object"), at);
            continue;
        }
        bool bad = false;
        for (auto it = d.begin(); it != d.end(); ++it) {
            if (!keys.contains(qs(it.key())) || !it->is_string()) {
                r.error(field, QStringLiteral("unknown or non-string field"),
                    at + QLatin1Char('.') + qs(it.key()));
                bad = true;
            }
        }
        Discriminator disc { member(d, "sibling"), member(d, "experiment"), member(d, "outcome") };
        for (const auto& [key, text] : { std::pair { "sibling", disc.sibling },
                 std::pair { "experiment", disc.experiment }, std::pair { "outcome", disc.outcome } }) {
            if (text.trimmed().isEmpty()) {
                r.error(field, QStringLiteral("missing"), at + QLatin1Char('.') + QLatin1String(key));
                bad = true;
            }
        }
        if (!bad)
            out.push_back(std::move(disc));
    }
    return out;
}

std::optional<Signature> readEntry(const json& entry, const QString& fileName, const QString& fileFamily,
    std::size_t index, QStringList& errors)
{
    QString idText;
    if (entry.is_object() && entry.contains("id") && entry.at("id").is_string())
        idText = qs(entry.at("id").get_ref<const std::string&>());
    const QString where = fileName + QStringLiteral(": entry ") + QString::number(index)
        + (idText.isEmpty() ? QString() : QStringLiteral(" (") + idText + QLatin1Char(')'));
    if (!entry.is_object()) {
        errors << where + QStringLiteral(": must be a JSON object");
        return std::nullopt;
    }
    EntryReader r(entry, where, errors);
    for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (!kKnownFields.contains(qs(it.key())))
            r.error(qs(it.key()), QStringLiteral("unknown field"));
    }

    Signature s;
    s.sourceFile = fileName;
    s.sourceIndex = static_cast<int>(index);
    s.id = r.string("id");
    static const QRegularExpression idShape(QStringLiteral("^[a-z0-9][a-z0-9-]*$"));
    if (!s.id.isEmpty() && !idShape.match(s.id).hasMatch())
        r.error(QStringLiteral("id"), QStringLiteral("must be lower-case letters, digits and '-'"));
    s.title = r.string("title");
    s.literal = r.string("literal");
    s.family = r.string("family");
    if (!s.family.isEmpty() && s.family != fileFamily)
        r.error(QStringLiteral("family"),
            QStringLiteral("'") + s.family + QStringLiteral("' differs from the file's family '") + fileFamily
                + QLatin1Char('\''));
    const QString role = r.string("role");
    if (const auto parsed = parseSignatureRole(role))
        s.role = *parsed;
    else if (!role.isEmpty())
        r.error(QStringLiteral("role"),
            QStringLiteral("must be cause, symptom or context, not '") + role + QLatin1Char('\''));
    s.category = r.string("category");
    if (!s.category.isEmpty() && !kCategories.contains(s.category))
        r.error(QStringLiteral("category"),
            QStringLiteral("must be one of ") + kCategories.join(QStringLiteral(", ")));
    s.summary = r.string("summary");
    s.explanation = r.string("explanation");
    s.fix = r.string("fix");
    if (entry.contains("actions"))
        s.actions = readActions(r, entry.at("actions"));
    // An entry that explains a stall (a hang without an error line) is chosen by the diagnosis, not by a
    // line: it needs no pattern and no example.
    if (entry.contains("stall")) {
        s.stall = r.string("stall");
        if (s.stall != QLatin1String("nccl-init") && s.stall != QLatin1String("nccl-first-collective")
            && s.stall != QLatin1String("launch") && s.stall != QLatin1String("host-divergence"))
            r.error(QStringLiteral("stall"),
                QStringLiteral(
                    "must be 'nccl-init' (NCCL setup began, no Init COMPLETE), "
                    "'nccl-first-collective' (Init COMPLETE, no training step after it), 'launch' "
                    "(a launcher started the job and the log ends before any NCCL line) or 'host-divergence' "
                    "(hosts of the job set NCCL up differently)"));
    }
    s.patterns = r.list("patterns", s.stall.isEmpty());
    for (int i = 0; i < s.patterns.size(); ++i) {
        const QString at = EntryReader::at(static_cast<std::size_t>(i));
        s.compiledPatterns.push_back(r.checkPattern(QStringLiteral("patterns"), at, s.patterns[i]));
        // Patterns see the raw line, and real lines arrive behind wrappers (a pod's clock, srun's "3: ",
        // a pdsh host, a Ray actor, "> " of a quote): an anchor at the start never matches them.
        if (startsAtLineStart(s.patterns[i]))
            r.error(QStringLiteral("patterns"),
                QStringLiteral("must not be anchored at '^': lines arrive behind wrappers (\\b or a "
                               "character class before the first word instead)"),
                at);
    }
    s.stacks = r.list("stacks", true);
    s.symptoms = r.list("symptoms", true);
    s.checklist = r.list("checklist", true);
    s.evidenceCommands = r.list("evidence_commands", true);
    s.verify = r.list("verify", true);
    s.siblings = r.list("siblings", false);
    if (entry.contains("discriminators"))
        s.discriminators = readDiscriminators(r, entry.at("discriminators"));
    for (std::size_t i = 0; i < s.discriminators.size(); ++i) {
        if (!s.siblings.contains(s.discriminators[i].sibling))
            r.error(QStringLiteral("discriminators"),
                QStringLiteral("'") + s.discriminators[i].sibling + QStringLiteral("' is not in 'siblings'"),
                EntryReader::at(i) + QStringLiteral(".sibling"));
    }
    s.references = r.list("references", false);
    for (int i = 0; i < s.references.size(); ++i) {
        if (!s.references[i].startsWith(QLatin1String("https://")))
            r.error(QStringLiteral("references"), QStringLiteral("must be an https:// URL"),
                EntryReader::at(static_cast<std::size_t>(i)));
    }
    if (!entry.contains("examples") || !entry.at("examples").is_object()) {
        r.error(QStringLiteral("examples"),
            QStringLiteral("missing or not an object {\"match\": [...], \"no_match\": [...]}"));
    } else {
        const json& ex = entry.at("examples");
        s.examplesMatch = r.list(ex, "match", s.stall.isEmpty(), QStringLiteral("examples.match"));
        if (ex.contains("no_match"))
            s.examplesNoMatch = r.list(ex, "no_match", false, QStringLiteral("examples.no_match"));
    }
    if (entry.contains("fallback")) {
        if (!entry.at("fallback").is_boolean())
            r.error(QStringLiteral("fallback"), QStringLiteral("must be true or false"));
        else
            s.fallback = entry.at("fallback").get<bool>();
    }
    if (entry.contains("innermost_frame")) {
        if (!entry.at("innermost_frame").is_boolean())
            r.error(QStringLiteral("innermost_frame"), QStringLiteral("must be true or false"));
        else
            s.innermostFrame = entry.at("innermost_frame").get<bool>();
    }
    if (entry.contains("network_fallback")) {
        if (!entry.at("network_fallback").is_boolean())
            r.error(QStringLiteral("network_fallback"), QStringLiteral("must be true or false"));
        else
            s.networkFallback = entry.at("network_fallback").get<bool>();
    }
    if (entry.contains("hint")) {
        if (!entry.at("hint").is_boolean())
            r.error(QStringLiteral("hint"), QStringLiteral("must be true or false"));
        else
            s.hint = entry.at("hint").get<bool>();
    }
    if (entry.contains("refines"))
        s.refines = r.string("refines");
    if (entry.contains("when")) {
        const json& when = entry.at("when");
        if (!when.is_object() || s.refines.isEmpty()) {
            r.error(QStringLiteral("when"), QStringLiteral("must be an object, and needs 'refines'"));
        } else {
            for (auto it = when.begin(); it != when.end(); ++it) {
                const std::string& key = it.key();
                if (key == "signatures" && it->is_array()) {
                    s.when.signatures = r.list(when, "signatures", true, QStringLiteral("when.signatures"));
                } else if (key == "initiating" && it->is_string()) {
                    s.when.initiating = qs(it->get_ref<const std::string&>());
                    s.when.initiatingPattern =
                        r.checkPattern(QStringLiteral("when.initiating"), {}, s.when.initiating);
                } else if (key == "silent_rank" && it->is_boolean()) {
                    s.when.silentRank = it->get<bool>();
                } else if (key == "mismatched_collectives" && it->is_boolean()) {
                    s.when.mismatchedCollectives = it->get<bool>();
                } else if (key == "env" && it->is_array()) {
                    s.when.env = r.list(when, "env", true, QStringLiteral("when.env"));
                    static const QRegularExpression envRe(QStringLiteral("^[A-Z_][A-Z0-9_]*(=.+)?$"));
                    for (const QString& e : s.when.env) {
                        if (!envRe.match(e).hasMatch())
                            r.error(QStringLiteral("when.env"),
                                QStringLiteral("'%1' is no NAME or NAME=VALUE").arg(e));
                    }
                } else {
                    r.error(QStringLiteral("when"),
                        QStringLiteral("unknown condition '%1' (signatures: [ids], "
                                       "initiating: RE2, silent_rank: bool, mismatched_collectives: bool, "
                                       "env: [NAME or NAME=VALUE])")
                            .arg(qs(key)));
                }
            }
        }
    }
    if (entry.contains("severity")) {
        const QString sev = r.string("severity");
        if (const auto parsed = parseSeverity(sev))
            s.severity = *parsed;
        else if (!sev.isEmpty())
            r.error(QStringLiteral("severity"), QStringLiteral("must be INFO, WARN, ERROR or FATAL"));
    }
    if (entry.contains("fingerprint")) {
        const json& fp = entry.at("fingerprint");
        if (!fp.is_array()) {
            r.error(QStringLiteral("fingerprint"),
                QStringLiteral("must be an array of {severity, pattern, description}"));
        } else {
            for (std::size_t i = 0; i < fp.size(); ++i) {
                const QString field = QStringLiteral("fingerprint");
                const QString element = EntryReader::at(i);
                const json& step = fp[i];
                if (!step.is_object() || !step.contains("severity") || !step.at("severity").is_string()
                    || !step.contains("description") || !step.at("description").is_string()) {
                    r.error(
                        field, QStringLiteral("needs string fields 'severity' and 'description'"), element);
                    continue;
                }
                FingerprintStep fs;
                const auto sev = parseSeverity(qs(step.at("severity").get_ref<const std::string&>()));
                if (!sev) {
                    r.error(field, QStringLiteral("severity must be INFO, WARN, ERROR or FATAL"), element);
                    continue;
                }
                fs.severity = *sev;
                fs.description = qs(step.at("description").get_ref<const std::string&>());
                if (step.contains("pattern")) {
                    if (!step.at("pattern").is_string()) {
                        r.error(field, QStringLiteral("'pattern' must be a string"), element);
                        continue;
                    }
                    fs.pattern = qs(step.at("pattern").get_ref<const std::string&>());
                    r.checkPattern(field, element + QStringLiteral(".pattern"), fs.pattern);
                }
                s.fingerprint.push_back(std::move(fs));
            }
        }
    }
    if (r.failed())
        return std::nullopt;
    return s;
}

std::optional<QByteArray> readAll(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return std::nullopt;
    }
    return f.readAll();
}

} // namespace

QString signatureRoleName(SignatureRole role)
{
    switch (role) {
    case SignatureRole::Cause:
        return QStringLiteral("cause");
    case SignatureRole::Symptom:
        return QStringLiteral("symptom");
    case SignatureRole::Context:
        return QStringLiteral("context");
    }
    return QStringLiteral("cause");
}

std::optional<SignatureRole> parseSignatureRole(const QString& name)
{
    if (name == QLatin1String("cause"))
        return SignatureRole::Cause;
    if (name == QLatin1String("symptom"))
        return SignatureRole::Symptom;
    if (name == QLatin1String("context"))
        return SignatureRole::Context;
    return std::nullopt;
}

int Catalog::indexOf(const QString& id) const
{
    for (std::size_t i = 0; i < signatures.size(); ++i) {
        if (signatures[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

int Catalog::familyCount() const
{
    QSet<QString> families;
    for (const Signature& s : signatures)
        families.insert(s.family);
    return static_cast<int>(families.size());
}

CatalogLoadResult loadCatalogFile(const QString& path)
{
    CatalogLoadResult result;
    const QString name = QFileInfo(path).fileName();
    QString readError;
    const auto bytes = readAll(path, &readError);
    if (!bytes) {
        result.errors << name + QStringLiteral(": cannot read: ") + readError;
        return result;
    }
    const std::string text = bytes->toStdString();
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
        ParseErrorCollector collector;
        json::sax_parse(text, &collector);
        result.errors << name + QStringLiteral(": JSON parse error: ") + qs(collector.message);
        return result;
    }
    if (!doc.is_object() || !doc.contains("family") || !doc.at("family").is_string()
        || doc.at("family").get_ref<const std::string&>().empty()) {
        result.errors << name + QStringLiteral(": field 'family': missing or not a non-empty string");
        return result;
    }
    if (!doc.contains("signatures") || !doc.at("signatures").is_array()) {
        result.errors << name + QStringLiteral(": field 'signatures': missing or not an array");
        return result;
    }
    const QString family = qs(doc.at("family").get_ref<const std::string&>());
    const json& entries = doc.at("signatures");
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (auto s = readEntry(entries[i], name, family, i, result.errors)) {
            if (result.catalog.indexOf(s->id) >= 0) {
                result.errors << name + QStringLiteral(": entry ") + QString::number(i) + QStringLiteral(" (")
                        + s->id + QStringLiteral("): field 'id': duplicate id in the same file");
                continue;
            }
            result.catalog.signatures.push_back(std::move(*s));
        }
    }
    if (!result.catalog.signatures.empty())
        result.catalog.files << path;
    return result;
}

CatalogLoadResult loadCatalogDir(const QString& dir)
{
    CatalogLoadResult result;
    const QDir d(dir);
    if (!d.exists()) {
        result.errors << dir + QStringLiteral(": catalog folder does not exist");
        return result;
    }
    QStringList names = d.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    // The JSON Schema describing catalog files, not a catalog file.
    names.removeAll(QStringLiteral("schema.json"));
    // Parsing the files and compiling their patterns is a third of the CLI's start-up: a second core
    // takes every other file. The results are merged in name order, as if read one by one.
    std::vector<CatalogLoadResult> loaded(static_cast<std::size_t>(names.size()));
    auto loadEvery = [&](qsizetype first) {
        for (qsizetype i = first; i < names.size(); i += 2)
            loaded[static_cast<std::size_t>(i)] = loadCatalogFile(d.filePath(names[i]));
    };
    std::future<void> odd;
    if (names.size() > 1 && std::thread::hardware_concurrency() > 1)
        odd = std::async(std::launch::async, loadEvery, 1);
    else
        loadEvery(1);
    loadEvery(0);
    if (odd.valid())
        odd.get();
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QString& fileName = names[i];
        CatalogLoadResult& one = loaded[static_cast<std::size_t>(i)];
        result.errors << one.errors;
        result.notes << one.notes;
        for (Signature& s : one.catalog.signatures) {
            const int existing = result.catalog.indexOf(s.id);
            if (existing >= 0) {
                result.errors << fileName + QStringLiteral(": entry ") + QString::number(s.sourceIndex)
                        + QStringLiteral(" (") + s.id
                        + QStringLiteral("): field 'id': duplicate of the entry in ")
                        + result.catalog.signatures[static_cast<std::size_t>(existing)].sourceFile;
                continue;
            }
            result.catalog.signatures.push_back(std::move(s));
        }
        result.catalog.files << one.catalog.files;
    }
    if (names.isEmpty())
        result.errors << dir + QStringLiteral(": no *.json catalog files");
    return result;
}

void mergeCatalog(CatalogLoadResult& base, CatalogLoadResult overlay)
{
    base.errors << overlay.errors;
    base.notes << overlay.notes;
    for (Signature& s : overlay.catalog.signatures) {
        const int existing = base.catalog.indexOf(s.id);
        if (existing >= 0) {
            Signature& old = base.catalog.signatures[static_cast<std::size_t>(existing)];
            base.notes << s.sourceFile + QStringLiteral(": entry ") + QString::number(s.sourceIndex)
                    + QStringLiteral(" (") + s.id + QStringLiteral(") replaces the entry from ")
                    + old.sourceFile;
            old = std::move(s);
        } else {
            base.catalog.signatures.push_back(std::move(s));
        }
    }
    for (const QString& f : std::as_const(overlay.catalog.files)) {
        if (!base.catalog.files.contains(f))
            base.catalog.files << f;
    }
}

void initBuiltinSignatures()
{
    static const bool once = [] {
        initBuiltinSignatureResource();
        return true;
    }();
    Q_UNUSED(once);
}

QString defaultCatalogDir()
{
    QString installed = QStringLiteral(RANKSCOPE_SIGNATURES_INSTALL_DIR);
    if (QFileInfo(installed).isDir() && !QDir(installed).entryList({ QStringLiteral("*.json") }).isEmpty())
        return installed;
    QString source = QStringLiteral(RANKSCOPE_SIGNATURES_SOURCE_DIR);
    if (QFileInfo(source).isDir() && !QDir(source).entryList({ QStringLiteral("*.json") }).isEmpty())
        return source;
    initBuiltinSignatures();
    return QStringLiteral(":/signatures");
}

CatalogLoadResult loadDefaultCatalog(const QStringList& extraDirs)
{
    CatalogLoadResult result = loadCatalogDir(defaultCatalogDir());
    for (const QString& dir : extraDirs)
        mergeCatalog(result, loadCatalogDir(dir));
    return result;
}

} // namespace rankscope
