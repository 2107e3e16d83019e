// A llama2.c checkpoint: its header and the sizes it implies, checked against the file.
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "formats/Llama2cCheckpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QString path = swb::fuzz::inputFile(data, size, "model.bin");
    (void)swb::Llama2cCheckpoint::open(path);
    return 0;
}
