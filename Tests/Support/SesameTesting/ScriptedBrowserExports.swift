// The tests read hosted pages with the one HTML form reader the demo uses.
@_exported import ScriptedBrowser
