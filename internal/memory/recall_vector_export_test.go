package memory

// QVectorListIndexed is the vector list's statement through the index, for the tests that read
// its plan.
const QVectorListIndexed = qVectorListIndexed

// QVectorListSketch is the vector list's statement by the sketch scan, for the tests that read its
// plan.
const QVectorListSketch = qVectorListSketch

// VectorRerankText is VectorRerank as the sketch scan's statement writes it.
const VectorRerankText = vectorRerankText

// VectorSketchNearText is how many of the nearest sketches the sketch scan's first, bounded sort
// keeps, as its statement writes it.
const VectorSketchNearText = vectorSketchNearText

// QRecallHybrid1536 is recall's statement of both lists for a 1,536-dimension request, for the tests
// that read which path it ran.
const QRecallHybrid1536 = qRecallHybrid1536
