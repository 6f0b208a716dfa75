// Sesame SDK
