#pragma once

#include <memory>

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace swb {

// One persisted setting: its key, type and default, declared once in the table below.
template <typename T> struct SettingKey {
    const char* key;
    T defaultValue;
};

namespace settings {
inline const SettingKey<QByteArray> windowGeometry{"window/geometry", {}};
inline const SettingKey<QByteArray> windowState{"window/state", {}};
inline const SettingKey<QString> lastTab{"window/lastTab", QStringLiteral("explore")};
inline const SettingKey<QString> modelPath{"model/path", {}};
inline const SettingKey<QStringList> recentModels{"model/recent", {}};
// The tokenizer file chosen for a model that needs one (llama2.c), by the model's path.
inline const SettingKey<QVariantMap> modelTokenizers{"model/tokenizers", {}};
inline const SettingKey<QString> modelDevice{"model/device", QStringLiteral("cpu")};
inline const SettingKey<QString> modelDtype{"model/dtype", QStringLiteral("f32")};
inline const SettingKey<int> modelThreads{"model/threads", 0};
inline const SettingKey<bool> modelFastMath{"model/fastMath", false};
inline const SettingKey<QString> quantizeRecipe{"model/quantizeRecipe", QStringLiteral("q4_k_m")};
inline const SettingKey<QString> divergenceModelB{"model/divergenceModelB", {}};
inline const SettingKey<QString> exploreStrategy{"explore/strategy", {}};
inline const SettingKey<QString> explorePrompt{"explore/prompt", QStringLiteral("And God said")};
inline const SettingKey<int> exploreMaxTokens{"explore/maxTokens", 64};
inline const SettingKey<bool> exploreShowFinal{"explore/showFinal", false};
inline const SettingKey<bool> exploreLogScale{"explore/logScale", false};
inline const SettingKey<QByteArray> exploreSplitters{"explore/splitters", {}};
// Explore's input: a raw prompt, or a conversation through the model's chat template.
inline const SettingKey<bool> exploreChatMode{"explore/chatMode", false};
inline const SettingKey<QString> exploreSystemPrompt{"explore/systemPrompt", {}};
// A chat template file chosen to replace a model's own, by the model's path.
inline const SettingKey<QVariantMap> modelChatTemplates{"model/chatTemplates", {}};
// A chat template typed in to replace a model's own (wins over a file), by the model's path.
inline const SettingKey<QVariantMap> modelChatTemplateTexts{"model/chatTemplateTexts", {}};
inline const SettingKey<QString> compareRater{"compare/rater", {}};
inline const SettingKey<QString> compareRubric{"compare/rubric", QStringLiteral("default")};
inline const SettingKey<QStringList> compareStrategies{"compare/strategies",
                                                       {QStringLiteral("greedy"), QStringLiteral("chat")}};
inline const SettingKey<QString> comparePrompts{"compare/prompts",
                                                QStringLiteral("And God said\nIn the beginning\nBlessed are the")};
// The Sweep tab's form as last left (strategy, axes, prompts, samples, max tokens, seed, metric).
inline const SettingKey<QVariantMap> sweepForm{"sweep/form", {}};
// Reports: raters are suggested for setting aside below these (the evaluation guide's defaults).
inline const SettingKey<double> reportsGoldThreshold{"reports/goldThreshold", 0.6};
inline const SettingKey<double> reportsAlphaRise{"reports/alphaRise", 0.05};
} // namespace settings

// The application's QSettings, stored under the reverse-DNS application id
// (~/.config/<id>/settings.conf on Linux). Tests point XDG_CONFIG_HOME at a temporary folder.
class Settings final {
public:
    Settings();

    template <typename T> T get(const SettingKey<T>& setting) const {
        return m_store->value(QLatin1String(setting.key), QVariant::fromValue(setting.defaultValue))
            .template value<T>();
    }
    template <typename T> void set(const SettingKey<T>& setting, const T& value) {
        m_store->setValue(QLatin1String(setting.key), QVariant::fromValue(value));
    }
    void sync() { m_store->sync(); }

private:
    std::unique_ptr<QSettings> m_store;
};

} // namespace swb
