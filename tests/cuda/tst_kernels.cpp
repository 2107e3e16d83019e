// The CUDA kernels for stored weights (core/model/cuda) on the GPU: every row's product the bits the host
// computes from QuantDecode.h (the same decoded weights, the same order of sums), within 1e-5 of the CPU
// kernels' exact product (relative to the row's Σ|w·x|), for one vector and for a batch of eight. Built only
// with SWB_CUDA_KERNELS; skips where no GPU is seen.

#include <cmath>
#include <cstring>

#include <cuda_runtime.h>

#include <QTest>

#include "CheckpointWriters.h"
#include "QuantBlocks.h"
#include "model/cuda/QuantDecode.h"
#include "model/cuda/QuantMatVec.h"
#include "model/kernels/WeightType.h"

using namespace swb;
using namespace swb::test;

namespace {

// Device memory holding a copy of host bytes, freed with it.
struct DeviceBuffer {
    void* data = nullptr;
    explicit DeviceBuffer(std::size_t bytes, const void* from = nullptr) {
        if (cudaMalloc(&data, bytes) == cudaSuccess && from)
            cudaMemcpy(data, from, bytes, cudaMemcpyHostToDevice);
    }
    ~DeviceBuffer() { cudaFree(data); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

} // namespace

class TestCudaKernels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
            QSKIP("no CUDA device is seen here");
    }

    void storedProductsMatchTheCpu_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("vectors");
        for (const QString& type : {QStringLiteral("q8_0"), QStringLiteral("q4_k")})
            for (const int vectors : {1, 3, 8})
                QTest::newRow(qPrintable(QStringLiteral("%1 x%2").arg(type).arg(vectors))) << type << vectors;
    }

    void storedProductsMatchTheCpu() {
        QFETCH(QString, type);
        QFETCH(int, vectors);
        const QuantType& t = quantType(type.toStdString());
        const kernels::WeightType kernelType = *kernels::fromGgml(t.ggml);
        const bool q8 = type == QLatin1String("q8_0");
        TestRandom rng(31);
        constexpr std::int64_t rows = 301, columns = 2048; // rows not a whole number of warps a block
        const QByteArray weights = randomBlocks(t, static_cast<std::size_t>(rows * columns), 0.05f, rng);
        const std::vector<float> x = rng.vector(static_cast<std::size_t>(vectors * columns), 1.0f);
        DeviceBuffer w(static_cast<std::size_t>(weights.size()), weights.constData());
        DeviceBuffer xd(x.size() * sizeof(float), x.data());
        DeviceBuffer yd(static_cast<std::size_t>(vectors * rows) * sizeof(float));
        QVERIFY(w.data && xd.data && yd.data);
        const std::string error =
            cuda::storedMatVec(q8 ? cuda::StoredType::Q8_0 : cuda::StoredType::Q4_K, w.data, rows, columns,
                               static_cast<const float*>(xd.data), vectors, static_cast<float*>(yd.data), nullptr);
        QVERIFY2(error.empty(), error.c_str());
        std::vector<float> y(static_cast<std::size_t>(vectors * rows));
        QCOMPARE(cudaMemcpy(y.data(), yd.data, y.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);

        const std::size_t rowBytes = kernels::rowBytes(kernelType, columns);
        std::vector<float> sums(columns / 16), decoded(columns);
        for (int v = 0; v < vectors; ++v) {
            const float* xv = x.data() + v * columns;
            kernels::groupSums16(xv, columns, sums.data());
            for (std::int64_t r = 0; r < rows; ++r) {
                const auto* row = reinterpret_cast<const std::uint8_t*>(weights.constData()) + r * rowBytes;
                const float host = q8 ? cuda::warpRowDot<cuda::Q8_0Blocks>(row, xv, columns)
                                      : cuda::warpRowDot<cuda::Q4_KBlocks>(row, xv, columns);
                const float gpu = y[static_cast<std::size_t>(v * rows + r)];
                QVERIFY2(
                    std::memcmp(&gpu, &host, 4) == 0,
                    qPrintable(QStringLiteral("vector %1 row %2: %3 against %4").arg(v).arg(r).arg(gpu).arg(host)));
                kernels::traits(kernelType).toFloat(row, decoded.data(), columns);
                double magnitude = 0;
                for (std::int64_t i = 0; i < columns; ++i)
                    magnitude += std::fabs(static_cast<double>(decoded[i]) * xv[i]);
                const float cpu = kernels::traits(kernelType).dot(row, xv, sums.data(), columns);
                QVERIFY(std::fabs(gpu - cpu) <= 1e-5 * magnitude);
            }
        }
    }

    void refusesWhatItCannotMultiply() {
        const std::string error =
            cuda::storedMatVec(cuda::StoredType::Q4_K, nullptr, 4, 100, nullptr, 1, nullptr, nullptr);
        QVERIFY(error.find("cannot be multiplied") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCudaKernels)
#include "tst_kernels.moc"
