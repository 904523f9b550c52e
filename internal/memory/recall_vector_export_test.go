package memory

// QVectorListIndexed is the vector list's statement through the index, for the tests that read
// its plan.
const QVectorListIndexed = qVectorListIndexed

// QVectorListSketch is the vector list's statement by the sketch scan, for the tests that read its
// plan.
const QVectorListSketch = qVectorListSketch

// VectorRerankText is VectorRerank as the sketch scan's statement writes it.
const VectorRerankText = vectorRerankText
