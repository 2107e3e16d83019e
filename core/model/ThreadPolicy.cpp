#include "model/ThreadPolicy.h"

#include <algorithm>
#include <cmath>

#include <sched.h>

#include <QFile>
#include <QStringList>

namespace swb {

namespace {

QByteArray readSmall(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(4096).trimmed();
}

} // namespace

double cgroupCpuQuota(const QByteArray& procCgroup, const QString& cgroupRoot) {
    double best = 0.0;
    const auto consider = [&best](double quota, double period) {
        if (quota > 0 && period > 0 && (best == 0.0 || quota / period < best))
            best = quota / period;
    };
    const QList<QByteArray> lines = procCgroup.trimmed().split('\n');
    for (const QByteArray& line : lines) {
        const QList<QByteArray> parts = line.split(':');
        if (parts.size() < 3)
            continue;
        const QString path = QString::fromUtf8(parts.mid(2).join(':'));
        if (parts[0] == "0" && parts[1].isEmpty()) { // cgroup v2: cpu.max is "QUOTA PERIOD" or "max PERIOD"
            QString dir = path;
            for (;;) {
                const QList<QByteArray> max = readSmall(cgroupRoot + dir + QStringLiteral("/cpu.max")).split(' ');
                if (max.size() == 2 && max[0] != "max")
                    consider(max[0].toDouble(), max[1].toDouble());
                if (dir.isEmpty() || dir == QLatin1String("/"))
                    break;
                dir = dir.left(std::max<qsizetype>(0, dir.lastIndexOf(QLatin1Char('/'))));
            }
        } else if (parts[1].split(',').contains("cpu")) { // cgroup v1
            for (const QString& root : {cgroupRoot + QStringLiteral("/cpu,cpuacct"), cgroupRoot + QStringLiteral("/cpu")}) {
                for (const QString& dir : {root + path, root}) {
                    const QByteArray quota = readSmall(dir + QStringLiteral("/cpu.cfs_quota_us"));
                    if (!quota.isEmpty()) {
                        consider(quota.toDouble(), readSmall(dir + QStringLiteral("/cpu.cfs_period_us")).toDouble());
                        break;
                    }
                }
            }
        }
    }
    return best;
}

int usableCpus() {
    int cpus = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        cpus = CPU_COUNT(&set);
    if (cpus <= 0)
        cpus = 1;
    if (const double quota = cgroupCpuQuota(readSmall(QStringLiteral("/proc/self/cgroup")), QStringLiteral("/sys/fs/cgroup"));
        quota > 0)
        cpus = std::min(cpus, std::max(1, static_cast<int>(std::ceil(quota - 1e-9))));
    return cpus;
}

ThreadChoice chooseThreads(int requested, std::int64_t weightBytesPerToken, bool onCpu) {
    ThreadChoice choice;
    if (requested > 0) {
        choice.threads = requested;
        choice.automatic = false;
        choice.reason = QStringLiteral("%1 set").arg(requested);
        return choice;
    }
    const int cpus = usableCpus();
    if (onCpu && weightBytesPerToken < kSmallModelBytes) {
        choice.threads = 1;
        choice.reason = QStringLiteral("auto: 1 (a step of this model is too small to split)");
    } else {
        choice.threads = cpus;
        choice.reason = QStringLiteral("auto: %1 (the CPUs this process may use)").arg(cpus);
    }
    return choice;
}

} // namespace swb
