// Welch's t-test over two classes of timings, as dudect does it (Reparaz, Balasch and
// Verbauwhede, "Dude, is my code constant time?", DATE 2017): the statistic for all samples
// and for samples cropped at several upper percentiles (cropping removes the long tail that
// interrupts and cache misses add), and the largest |t| among them.

struct WelchAccumulator {
    private var count = [0.0, 0.0], mean = [0.0, 0.0], m2 = [0.0, 0.0]

    /// Adds one timing of class 0 (fixed input) or 1 (random input); Welford's update.
    mutating func add(_ value: Double, toClass index: Int) {
        count[index] += 1
        let delta = value - mean[index]
        mean[index] += delta / count[index]
        m2[index] += delta * (value - mean[index])
    }

    /// Welch's t for the two classes (0 when either has fewer than two samples).
    var t: Double {
        guard count[0] > 1, count[1] > 1 else { return 0 }
        let variance0 = m2[0] / (count[0] - 1), variance1 = m2[1] / (count[1] - 1)
        let error = (variance0 / count[0] + variance1 / count[1]).squareRoot()
        return error > 0 ? (mean[0] - mean[1]) / error : 0
    }

    var samples: Int { Int(count[0] + count[1]) }
}

struct WelchTest {
    /// The upper percentiles samples are cropped at (1.0: no crop).
    static let crops: [Double] = [1.0, 0.99, 0.95, 0.90, 0.75, 0.50]

    /// t for each crop of `timings`, whose class is `classes[i]`.
    static func statistics(_ timings: [UInt64], classes: [Bool]) -> [(crop: Double, t: Double, samples: Int)] {
        let sorted = timings.sorted()
        return crops.map { crop in
            let limit = sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * crop))]
            var accumulator = WelchAccumulator()
            for (timing, isRandom) in zip(timings, classes) where timing <= limit {
                accumulator.add(Double(timing), toClass: isRandom ? 1 : 0)
            }
            return (crop, accumulator.t, accumulator.samples)
        }
    }

    /// dudect's reading of |t|: under 4.5 no evidence of a leak at this sample count; over 10 a
    /// leak almost surely; between, run longer.
    static func verdict(_ t: Double) -> String {
        switch abs(t) {
        case ..<4.5: "no evidence of a leak"
        case ..<10: "inconclusive: run with more samples"
        default: "LEAK (timing depends on the class)"
        }
    }
}
