#include "bench/least_squares.hpp"

#include <cstddef>

namespace rowbridge::bench {

LineFit FitLine(const std::vector<double>& x, const std::vector<double>& y) {
  LineFit fit;
  size_t n = x.size() < y.size() ? x.size() : y.size();
  if (n == 0) return fit;
  double mean_x = 0.0;
  double mean_y = 0.0;
  for (size_t i = 0; i < n; ++i) {
    mean_x += x[i];
    mean_y += y[i];
  }
  mean_x /= static_cast<double>(n);
  mean_y /= static_cast<double>(n);
  double sxx = 0.0;
  double sxy = 0.0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mean_x) * (x[i] - mean_x);
    sxy += (x[i] - mean_x) * (y[i] - mean_y);
  }
  fit.slope = sxx > 0.0 ? sxy / sxx : 0.0;
  fit.intercept = mean_y - fit.slope * mean_x;
  for (size_t i = 0; i < n; ++i) fit.residuals.push_back(y[i] - (fit.intercept + fit.slope * x[i]));
  return fit;
}

}  // namespace rowbridge::bench
