// The server's HTTP request reader: any bytes, split anywhere, read as far as they go.
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "serving/HttpMessage.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    swb::HttpRequestParser parser(64 * 1024);
    const std::size_t split = data[0] % size;
    const char* bytes = reinterpret_cast<const char*>(data);
    swb::HttpRequestParser::State state = parser.feed(bytes, static_cast<qint64>(split));
    for (int guard = 0; state == swb::HttpRequestParser::State::Complete && guard < 1000; ++guard) {
        const swb::HttpRequest request = parser.take();
        (void)request.header("content-type");
        state = parser.state();
    }
    state = parser.feed(bytes + split, static_cast<qint64>(size - split));
    for (int guard = 0; state == swb::HttpRequestParser::State::Complete && guard < 1000; ++guard) {
        parser.take();
        state = parser.state();
    }
    return 0;
}
