#pragma once

#include "progressreport.h"

#include <QJsonObject>

// The simulator's predicted floor for what a measured run computed, on the
// run's chip, for the labs whose work the cost model knows: matmuls (L01,
// L07), the bench rows (L05), an elementwise add (L06) and streaming
// attention (L09). Other labs, multi-chip runs and unknown chips or dtypes
// get no prediction rather than a wrong one.
QList<ProgressReport::Prediction> predictRun(const ProgressReport::Run &run, const QJsonObject &extra);
