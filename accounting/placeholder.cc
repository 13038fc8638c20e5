// Placeholder so the layer target exists; replaced by the accounting issue.
