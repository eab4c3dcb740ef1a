@_exported import Strata
