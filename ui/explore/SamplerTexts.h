#pragma once

#include <QString>
#include <QStringList>

namespace swb {

// A sampler's summary or parameter text (SamplerDescriptor), or a decoder's trace columns and note
// (DecoderDescriptor), in the interface's language.
QString samplerText(const QString& english);
// The texts translated (test seam: every descriptor's texts must be among them).
QStringList samplerTextSources();

} // namespace swb
