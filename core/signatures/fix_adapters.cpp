// SPDX-License-Identifier: MIT
#include "fix_adapters.h"

#include "fix_action.h"
#include "signature_catalog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

namespace rankscope {

namespace {

using nlohmann::json;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Reads the fields of one adapter object, recording each problem with file, entry and field.
class AdapterReader
{
public:
    AdapterReader(const json& object, QString where, QStringList& errors)
        : m_object(object)
        , m_where(std::move(where))
        , m_errors(errors)
    {
    }
    void error(const QString& field, const QString& message)
    {
        m_errors << m_where + QStringLiteral(": field '") + field + QStringLiteral("': ") + message;
    }
    QString string(const char* field, bool required = true)
    {
        if (m_object.contains(field) && m_object.at(field).is_string()
            && !m_object.at(field).get_ref<const std::string&>().empty())
            return qs(m_object.at(field).get_ref<const std::string&>());
        if (required)
            error(QLatin1String(field), QStringLiteral("missing or not a non-empty string"));
        return {};
    }
    QStringList lines(const json& parent, const char* field, const QString& label)
    {
        QStringList out;
        if (!parent.contains(field) || !parent.at(field).is_array()) {
            error(label, QStringLiteral("missing or not an array of strings"));
            return out;
        }
        for (const json& v : parent.at(field)) {
            if (v.is_string())
                out << qs(v.get_ref<const std::string&>());
            else
                error(label, QStringLiteral("must hold only strings"));
        }
        return out;
    }
    QStringList lines(const char* field) { return lines(m_object, field, QLatin1String(field)); }

private:
    const json& m_object;
    QString m_where;
    QStringList& m_errors;
};

json readJson(const QString& path, QStringList& errors)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        errors << QFileInfo(path).fileName() + QStringLiteral(": cannot read: ") + f.errorString();
        return {};
    }
    json doc = json::parse(f.readAll().toStdString(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        errors << QFileInfo(path).fileName() + QStringLiteral(": not a JSON object");
        return {};
    }
    return doc;
}

QString where(const QString& file, const char* what, std::size_t i, const json& entry)
{
    QString id;
    if (entry.is_object() && entry.contains("id") && entry.at("id").is_string())
        id = QStringLiteral(" (") + qs(entry.at("id").get_ref<const std::string&>()) + QLatin1Char(')');
    return file + QStringLiteral(": ") + QLatin1String(what) + QLatin1Char(' ') + QString::number(i) + id;
}

void readLaunchers(const QString& dir, FixAdapters& out)
{
    const QString file = QStringLiteral("launchers.json");
    const json doc = readJson(QDir(dir).filePath(file), out.errors);
    if (doc.is_null())
        return;
    const json empty = json::array();
    const json& launchers = doc.contains("launchers") ? doc.at("launchers") : empty;
    for (std::size_t i = 0; i < launchers.size(); ++i) {
        AdapterReader r(launchers[i], where(file, "launcher", i, launchers[i]), out.errors);
        LauncherAdapter a { r.string("id"), r.string("label"), r.lines("env"), r.string("quote"),
            r.string("container"), r.lines("flags"), r.string("source"), r.string("note", false) };
        if (a.quote != QLatin1String("shell") && a.quote != QLatin1String("python")
            && a.quote != QLatin1String("yaml"))
            r.error(QStringLiteral("quote"), QStringLiteral("must be shell, python or yaml"));
        out.launchers.push_back(std::move(a));
    }
    const json& containers = doc.contains("containers") ? doc.at("containers") : empty;
    for (std::size_t i = 0; i < containers.size(); ++i) {
        AdapterReader r(containers[i], where(file, "container", i, containers[i]), out.errors);
        ContainerAdapter c { r.string("id"), r.string("label"), r.string("quote"), {}, r.lines("flags"),
            r.string("source") };
        const json& settings = containers[i].contains("settings") ? containers[i].at("settings") : empty;
        for (const QString& name : containerSettingNames()) {
            const std::string key = name.toStdString();
            c.settings.insert(name, r.lines(settings, key.c_str(), QStringLiteral("settings.") + name));
        }
        out.containers.push_back(std::move(c));
    }
    if (out.launchers.empty() || out.containers.empty())
        out.errors << file + QStringLiteral(": field 'launchers'/'containers': missing or empty");
    for (const LauncherAdapter& l : out.launchers) {
        if (!out.container(l.container))
            out.errors << file + QStringLiteral(": launcher ") + l.id
                    + QStringLiteral(": field 'container': '") + l.container
                    + QStringLiteral("' is not a container adapter");
    }
}

void readFrameworks(const QString& dir, FixAdapters& out)
{
    const QString file = QStringLiteral("frameworks.json");
    const json doc = readJson(QDir(dir).filePath(file), out.errors);
    if (doc.is_null())
        return;
    const json empty = json::array();
    const json& frameworks = doc.contains("frameworks") ? doc.at("frameworks") : empty;
    for (std::size_t i = 0; i < frameworks.size(); ++i) {
        AdapterReader r(frameworks[i], where(file, "framework", i, frameworks[i]), out.errors);
        FrameworkAdapter f { r.string("id"), r.string("label"), r.lines("timeout"), r.string("unit"),
            r.string("fallback", false), r.lines("flags"), r.string("source"), r.string("note", false) };
        if (f.timeout.isEmpty() && f.fallback.isEmpty())
            r.error(QStringLiteral("timeout"), QStringLiteral("empty, and no 'fallback' framework"));
        out.frameworks.push_back(std::move(f));
    }
    if (out.frameworks.empty())
        out.errors << file + QStringLiteral(": field 'frameworks': missing or empty");
    for (const FrameworkAdapter& f : out.frameworks) {
        if (!f.fallback.isEmpty()
            && (!out.framework(f.fallback) || out.framework(f.fallback)->timeout.isEmpty()))
            out.errors << file + QStringLiteral(": framework ") + f.id
                    + QStringLiteral(": field 'fallback': '") + f.fallback
                    + QStringLiteral("' is not a framework with a timeout snippet");
    }
}

template <typename T> const T* findById(const std::vector<T>& all, const QString& id)
{
    for (const T& a : all) {
        if (a.id == id)
            return &a;
    }
    return nullptr;
}

} // namespace

const LauncherAdapter* FixAdapters::launcher(const QString& id) const
{
    return findById(launchers, id);
}
const ContainerAdapter* FixAdapters::container(const QString& id) const
{
    return findById(containers, id);
}
const FrameworkAdapter* FixAdapters::framework(const QString& id) const
{
    return findById(frameworks, id);
}

FixAdapters loadFixAdapters(const QString& dir)
{
    FixAdapters out;
    readLaunchers(dir, out);
    readFrameworks(dir, out);
    return out;
}

QString defaultAdaptersDir()
{
    // Next to the catalog, wherever that was found (its subfolder "adapters").
    return defaultCatalogDir() + QStringLiteral("/adapters");
}

const FixAdapters& defaultFixAdapters()
{
    static const FixAdapters adapters = loadFixAdapters(defaultAdaptersDir());
    return adapters;
}

} // namespace rankscope
