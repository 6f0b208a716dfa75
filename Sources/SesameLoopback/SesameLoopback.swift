// Loopback browser agent: see LoopbackBrowserAgent.swift
