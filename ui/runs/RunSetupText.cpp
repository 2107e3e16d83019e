#include "runs/RunSetupText.h"

#include <QCoreApplication>

#include "storage/RunRepository.h"

namespace swb {

namespace {
// The context these words are translated in.
struct SetupWords {
    Q_DECLARE_TR_FUNCTIONS(SetupWords)
};
} // namespace

QString setupText(const RunSetup& setup) {
    if (!setup.known())
        return SetupWords::tr("unknown");
    QStringList parts;
    if (setup.threads)
        parts << (*setup.threads == 1 ? SetupWords::tr("1 thread") : SetupWords::tr("%1 threads").arg(*setup.threads));
    if (setup.fastMath)
        parts << (*setup.fastMath ? SetupWords::tr("fast math") : SetupWords::tr("exact"));
    for (const QString& field : {setup.computeDtype, setup.device, setup.kernelPath})
        if (!field.isEmpty())
            parts << field;
    return parts.join(QStringLiteral(" · "));
}

QString setupDifferenceText(const QStringList& differences) {
    QStringList names;
    for (const QString& key : differences) {
        if (key == QLatin1String("threads"))
            names << SetupWords::tr("threads");
        else if (key == QLatin1String("fast_math"))
            names << SetupWords::tr("fast math");
        else if (key == QLatin1String("compute_dtype"))
            names << SetupWords::tr("compute dtype");
        else if (key == QLatin1String("device"))
            names << SetupWords::tr("device");
        else if (key == QLatin1String("kernel_path"))
            names << SetupWords::tr("kernel path");
    }
    return names.join(SetupWords::tr(", "));
}

QString rateText(double tokensPerSecond) {
    if (tokensPerSecond >= 10.0)
        return QString::number(tokensPerSecond, 'f', 0);
    if (tokensPerSecond >= 1.0)
        return QString::number(tokensPerSecond, 'f', 1);
    return QString::number(tokensPerSecond, 'g', 2);
}

} // namespace swb
