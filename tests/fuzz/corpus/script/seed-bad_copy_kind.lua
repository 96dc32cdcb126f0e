-- an unknown copy kind
gpuperf.copy{ bytes = 64, kind = "h2h" }
