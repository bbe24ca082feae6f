// An ordinary least-squares line through (x, y) points.
#pragma once

#include <vector>

namespace rowbridge::bench {

struct LineFit {
  double intercept = 0.0;  // may be negative: reported as is
  double slope = 0.0;
  std::vector<double> residuals;  // y[i] - (intercept + slope * x[i])
};

/// Fits y = intercept + slope * x. Needs at least two distinct x values;
/// otherwise the slope is 0 and the intercept the mean of y.
LineFit FitLine(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace rowbridge::bench
