// A desktop or command-line app writes `import SesameLoopback` and gets the SDK with it.
@_exported import Sesame
