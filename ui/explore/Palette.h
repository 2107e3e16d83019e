#pragma once

#include <QColor>

// The Explore view's colours, in one place.
namespace swb::palette {

inline QColor accent() { return QColor(0xE0, 0x6C, 0x00); }        // the chosen token
inline QColor kept() { return QColor(0x3B, 0x73, 0xB9); }          // survivors
inline QColor cut() { return QColor(0xB8, 0xBE, 0xC6); }           // removed by a sampler
inline QColor others() { return QColor(0xD9, 0xDC, 0xE1); }        // the tail not shown
inline QColor finalMarker() { return QColor(0x14, 0x2F, 0x52); }   // p after the chain, over the raw bar
inline QColor marker() { return QColor(0xA3, 0x1F, 0x34); }        // cutoff lines
inline QColor grammar() {
    return QColor(0x2E, 0x8B, 0x57);
} // what a grammar stage removed
inline QColor survivorRegion() { return QColor(0x3B, 0x73, 0xB9, 28); }

// Chip colour for a probability in [0, 1]: low = warm red, middle = amber, high = green.
inline QColor probability(double p) {
    p = p < 0 ? 0 : (p > 1 ? 1 : p);
    const double hue = 0.0 + 120.0 * p; // red → green through amber
    return QColor::fromHslF(static_cast<float>(hue / 360.0), 0.65f, 0.80f);
}

// Shade for a divergence as a fraction of the scale's top (clamped to [0, 1]): white to a warm red.
inline QColor divergence(double fraction) {
    fraction = fraction < 0 ? 0 : (fraction > 1 ? 1 : fraction);
    return QColor::fromHslF(0.02f, 0.80f, static_cast<float>(1.0 - 0.42 * fraction));
}

} // namespace swb::palette
