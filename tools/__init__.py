"""Build-time tools: generators of the files the package ships."""
