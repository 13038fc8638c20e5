// Placeholder so the layer target exists; replaced by the verification issue.
