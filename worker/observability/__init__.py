"""What the worker exposes about itself: Prometheus metrics and the health endpoints."""
