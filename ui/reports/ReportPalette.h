#pragma once

#include <cmath>

#include <QColor>

// The Reports view's colours: one per strategy, the same in the table and every chart, and the win-rate scale.
namespace swb::reportPalette {

// Okabe and Ito's colour-blind-safe qualitative set, most distinct first; repeats past eight strategies.
inline QColor strategy(int index) {
    static const QColor colours[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
                                     QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9), QColor(0xD5, 0x5E, 0x00),
                                     QColor(0x6A, 0x6A, 0x6A), QColor(0xB8, 0xA4, 0x00)};
    constexpr int count = static_cast<int>(sizeof colours / sizeof colours[0]);
    return colours[((index % count) + count) % count];
}

// Win rates: red below one half, white at one half, blue above (ColorBrewer RdBu).
inline QColor losing() {
    return QColor(0xB2, 0x18, 0x2B);
}
inline QColor even() {
    return QColor(0xF7, 0xF7, 0xF7);
}
inline QColor winning() {
    return QColor(0x21, 0x66, 0xAC);
}
inline QColor noData() {
    return QColor(0xE4, 0xE6, 0xEA);
}

inline QColor errorText() {
    return QColor(0xA3, 0x1F, 0x34);
}
inline QColor grid() {
    return QColor(0xE3, 0xE5, 0xE8);
}

// Krippendorff's thresholds: alpha >= 0.8 reliable, >= 0.667 tentative, below that not to be relied on.
inline QColor agreement(double alpha) {
    if (std::isnan(alpha))
        return {};
    if (alpha >= 0.8)
        return QColor(0xD9, 0xF0, 0xD3);
    if (alpha >= 0.667)
        return QColor(0xFD, 0xF0, 0xC6);
    return QColor(0xF8, 0xD7, 0xD3);
}

} // namespace swb::reportPalette
