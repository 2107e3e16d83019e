// A .safetensors file: header length, header JSON, dtypes, shapes and data offsets, every tensor's bytes read.
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "formats/SafeTensorsFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QString path = swb::fuzz::inputFile(data, size, "model.safetensors");
    swb::Result<swb::SafeTensorsFile> file = swb::SafeTensorsFile::open(path);
    if (!file)
        return 0;
    unsigned sum = 0;
    for (const swb::SafeTensorsFile::Tensor& tensor : file->tensors())
        for (std::size_t i = 0; i < tensor.bytes; i += 4096)
            sum += static_cast<unsigned>(tensor.data[i]);
    return static_cast<int>(sum & 0);
}
